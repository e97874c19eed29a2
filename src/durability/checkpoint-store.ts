import type { MessageParam, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import {
  RESUMABLE_BOUNDARIES,
  systemPromptHash,
  type CheckpointBoundary,
  type CheckpointState,
  type EnvelopeEntry,
  type RunDurability,
  type SavedRun,
} from '../loop/durability.js';
import type { RunMetrics } from '../loop/outcome.js';
import { NODE_FS, type ResultsFs } from '../results/results-fs.js';
import { UserInputError } from '../user-input-error.js';
import {
  checkpointLine,
  JournalFile,
  toolCompletedLine,
  toolStartedLine,
  type JournalEntry,
} from './checkpoint-journal.js';
import { RunIndex } from './run-index.js';

/** Why a run cannot be resumed, or the run as its last checkpoint left it. */
export type ResumePoint =
  | { readonly kind: 'resumable'; readonly saved: SavedRun }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Checkpoints and the idempotency envelope of runs, in a journal file (JSON lines, one per
 * change: a checkpoint, a tool call started, a tool call completed with its result) or in
 * memory (`':memory:'`). Every read is answered by an index in memory; opening a file
 * rebuilds it by replaying the file. A change is appended to the file before the index
 * takes it, so each checkpoint and each call's start and completion survives a process
 * crash (see `JournalFile`: one write, no fsync; a power cut may lose the last changes).
 * One store per file at a time: a second one would not see this one's changes.
 *
 * @example
 * const store = new CheckpointStore(join(outDir, 'checkpoints.jsonl'));
 * const loop = new BudgetedAgentLoop({ ...options, durability: store.forRun('run-1', system) });
 * // after a crash, in a new process:
 * const point = new CheckpointStore(join(outDir, 'checkpoints.jsonl')).resumePoint('run-1');
 */
export class CheckpointStore {
  readonly #runs = new Map<string, RunIndex>();
  readonly #journal: JournalFile | null;

  /** `path`: a journal file, created if missing, or ':memory:'. */
  constructor(path: string, fs: ResultsFs = NODE_FS) {
    if (path === ':memory:') {
      this.#journal = null;
      return;
    }
    const { file, contents } = JournalFile.open(path, fs);
    try {
      for (const { line, entry } of contents.entries) this.#replay(`${path}:${line}`, entry);
    } catch (error) {
      file.close();
      throw error;
    }
    this.#journal = file;
  }

  /** The durability port for one run; `system` is the system prompt it runs with. */
  forRun(runId: string, system: string | undefined): RunDurability {
    return new RunRecorder(this.#journal, this.#run(runId), runId, systemPromptHash(system));
  }

  /** Where `runId` could be resumed from, or why it cannot. */
  resumePoint(runId: string): ResumePoint {
    const run = this.#runs.get(runId);
    const last = run?.lastCheckpoint;
    if (run === undefined || last === undefined) return { kind: 'refused', reason: `no checkpoint of run ${runId}` };
    if (!RESUMABLE_BOUNDARIES.has(last.boundary))
      return { kind: 'refused', reason: `run ${runId} has ended (last checkpoint: ${last.boundary})` };
    return {
      kind: 'resumable',
      saved: {
        messages: run.messages().map((message) => JSON.parse(message) as MessageParam),
        // A checkpoint written before the prompt-cache counts had none.
        metrics: {
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          ...(JSON.parse(last.metrics) as Partial<RunMetrics>),
        } as RunMetrics,
        at: last.at,
        boundary: last.boundary,
        systemHash: last.systemHash,
      },
    };
  }

  /** Whether the envelope holds a completed call `id` of run `runId`. */
  isCompleted(runId: string, id: string): boolean {
    return typeof this.#runs.get(runId)?.result(id) === 'string';
  }

  close(): void {
    this.#journal?.close();
  }

  #run(runId: string): RunIndex {
    let run = this.#runs.get(runId);
    if (run === undefined) this.#runs.set(runId, (run = new RunIndex()));
    return run;
  }

  /** Applies one line of the journal being opened; `source` is `file:line`. */
  #replay(source: string, entry: JournalEntry): void {
    const run = this.#run(entry.run);
    switch (entry.kind) {
      case 'checkpoint': {
        if (entry.from > run.messageCount)
          throw UserInputError.single(
            source,
            'from',
            `at most ${run.messageCount}, the messages run ${entry.run} had; got ${entry.from}`,
          );
        const head = { boundary: entry.boundary, systemHash: entry.systemHash, at: entry.at };
        const messages = entry.messages.map((message) => JSON.stringify(message));
        run.checkpoint(entry.from, messages, { ...head, metrics: JSON.stringify(entry.metrics) });
        return;
      }
      case 'tool_started':
        run.startCall(entry.id, entry.at);
        return;
      case 'tool_completed':
        run.completeCall(entry.id, JSON.stringify(entry.result));
        return;
    }
  }
}

/**
 * One run's writer. It remembers which message objects it has persisted, so a
 * checkpoint writes only the messages after the first one that changed (the loop appends,
 * and only ever replaces the last user message or, after a repair, the whole transcript).
 */
class RunRecorder implements RunDurability {
  readonly #persisted: MessageParam[] = [];
  /** Ids of the run's completed calls, kept here: a checkpoint lists them without a search. */
  readonly #completed: string[];

  readonly #journal: JournalFile | null;
  readonly #run: RunIndex;
  readonly #runId: string;
  readonly #systemHash: string;

  constructor(journal: JournalFile | null, run: RunIndex, runId: string, systemHash: string) {
    this.#journal = journal;
    this.#run = run;
    this.#runId = runId;
    this.#systemHash = systemHash;
    // A resumed run's stored messages are rewritten once at its first checkpoint: it
    // holds copies, not the objects written before.
    this.#completed = run.completedIds();
  }

  checkpoint(boundary: CheckpointBoundary, state: CheckpointState): void {
    const { messages, metrics, at } = state;
    let same = 0;
    while (same < this.#persisted.length && same < messages.length && this.#persisted[same] === messages[same])
      same += 1;
    // Another writer of the same run may have stored a shorter transcript since: leave no gap.
    const from = Math.min(same, this.#run.messageCount);
    const written: string[] = [];
    for (let i = from; i < messages.length; i++) written.push(JSON.stringify(messages[i]));
    const head = { boundary, systemHash: this.#systemHash, at };
    this.#journal?.append(
      checkpointLine(
        { kind: 'checkpoint', run: this.#runId, from, ...head, metrics, completed: this.#completed },
        written,
      ),
    );
    this.#run.checkpoint(from, written, { ...head, metrics: JSON.stringify(metrics) });
    this.#persisted.length = from;
    for (let i = from; i < messages.length; i++) this.#persisted.push(messages[i]!);
  }

  toolCall(id: string): EnvelopeEntry | undefined {
    const result = this.#run.result(id);
    if (result === undefined) return undefined;
    return result === null
      ? { state: 'started' }
      : { state: 'completed', block: JSON.parse(result) as ToolResultBlockParam };
  }

  startToolCall(call: ToolUseBlock, at: number): void {
    this.#journal?.append(
      toolStartedLine({ kind: 'tool_started', run: this.#runId, id: call.id, name: call.name, input: call.input, at }),
    );
    this.#run.startCall(call.id, at);
  }

  completeToolCall(id: string, block: ToolResultBlockParam, at: number): void {
    // A call never started is not in the envelope: there is nothing to complete.
    if (this.#run.result(id) !== undefined) {
      const result = JSON.stringify(block);
      this.#journal?.append(toolCompletedLine({ kind: 'tool_completed', run: this.#runId, id, at }, result));
      this.#run.completeCall(id, result);
    }
    this.#completed.push(id);
  }
}
