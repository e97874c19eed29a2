import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
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
import { UserInputError } from '../user-input-error.js';
import type { RunMetrics } from '../loop/outcome.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  run_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT NULL,
  PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS checkpoints (
  run_id TEXT NOT NULL, seq INTEGER NOT NULL, boundary TEXT NOT NULL,
  iteration INTEGER NOT NULL, message_cursor INTEGER NOT NULL, persisted_messages INTEGER NOT NULL,
  system_hash TEXT NOT NULL, metrics TEXT NOT NULL, at INTEGER NOT NULL, completed_calls TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS tool_calls (
  run_id TEXT NOT NULL, tool_call_id TEXT NOT NULL, name TEXT NOT NULL, input TEXT NOT NULL,
  started_at INTEGER NOT NULL, completed_at INTEGER, result TEXT,
  PRIMARY KEY (run_id, tool_call_id)
);
`;

function prepareStatements(db: Database.Database) {
  return {
    deleteMessagesFrom: db.prepare('DELETE FROM messages WHERE run_id = ? AND idx >= ?'),
    insertMessage: db.prepare('INSERT INTO messages (run_id, idx, body) VALUES (?, ?, ?)'),
    insertCheckpoint: db.prepare(
      'INSERT INTO checkpoints (run_id, seq, boundary, iteration, message_cursor, persisted_messages, system_hash, metrics, at, completed_calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    lastCheckpoint: db.prepare('SELECT * FROM checkpoints WHERE run_id = ? ORDER BY seq DESC LIMIT 1'),
    messages: db.prepare('SELECT body FROM messages WHERE run_id = ? AND idx < ? ORDER BY idx'),
    startCall: db.prepare(
      'INSERT OR REPLACE INTO tool_calls (run_id, tool_call_id, name, input, started_at) VALUES (?, ?, ?, ?, ?)',
    ),
    completeCall: db.prepare(
      'UPDATE tool_calls SET completed_at = ?, result = ? WHERE run_id = ? AND tool_call_id = ?',
    ),
    call: db.prepare('SELECT completed_at, result FROM tool_calls WHERE run_id = ? AND tool_call_id = ?'),
    completedIds: db.prepare(
      'SELECT tool_call_id FROM tool_calls WHERE run_id = ? AND completed_at IS NOT NULL ORDER BY started_at, tool_call_id',
    ),
  };
}
type Statements = ReturnType<typeof prepareStatements>;

/** The range package.json names for the optional peer dependency. */
const SQLITE_RANGE = '^12.11.1';

/**
 * better-sqlite3, loaded when a store is first opened: it is an optional peer dependency
 * (a native addon that compiles on install where no prebuilt binary is reachable), and
 * only checkpoints need it, so `import 'spiralbench'` and every other command work without it.
 */
function openDatabase(path: string): Database.Database {
  let open: typeof Database;
  try {
    open = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw UserInputError.single(
      'checkpoints',
      '',
      `the package better-sqlite3, which checkpoints and crash-resume need; it is not installed: add it with npm install 'better-sqlite3@${SQLITE_RANGE}'`,
    );
  }
  return new open(path);
}

/** Why a run cannot be resumed, or the run as its last checkpoint left it. */
export type ResumePoint =
  | { readonly kind: 'resumable'; readonly saved: SavedRun }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Checkpoints and the idempotency envelope in SQLite (better-sqlite3): a file under a
 * sweep's results folder, or `:memory:`. Each checkpoint is one transaction: the
 * messages not yet persisted and a row with the iteration, message cursor, persisted
 * message count, system-prompt hash and the ids of completed tool calls. Each tool
 * call is a row keyed by (run_id, tool_call_id), written when it starts and again when
 * it completes, with its result.
 */
export class CheckpointStore {
  readonly #db: Database.Database;
  readonly #statements: Statements;

  /** `path`: a database file, created if missing, or ':memory:'. */
  constructor(path: string) {
    this.#db = openDatabase(path);
    // WAL with NORMAL sync: each commit survives a process crash, the risk this guards
    // against; a power cut may lose the last commits, never corrupt the file.
    if (path !== ':memory:') this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.exec(SCHEMA);
    this.#statements = prepareStatements(this.#db);
  }

  /** The durability port for one run; `system` is the system prompt it runs with. */
  forRun(runId: string, system: string | undefined): RunDurability {
    return new RunRecorder(this.#db, this.#statements, runId, systemPromptHash(system));
  }

  /** Where `runId` could be resumed from, or why it cannot. */
  resumePoint(runId: string): ResumePoint {
    const row = this.#statements.lastCheckpoint.get(runId) as CheckpointRow | undefined;
    if (row === undefined) return { kind: 'refused', reason: `no checkpoint of run ${runId}` };
    const boundary = row.boundary as CheckpointBoundary;
    if (!RESUMABLE_BOUNDARIES.has(boundary))
      return { kind: 'refused', reason: `run ${runId} has ended (last checkpoint: ${boundary})` };
    const rows = this.#statements.messages.all(runId, row.message_cursor) as { body: string }[];
    const messages = rows.map((message) => JSON.parse(message.body) as MessageParam);
    return {
      kind: 'resumable',
      saved: {
        messages,
        metrics: JSON.parse(row.metrics) as RunMetrics,
        at: row.at,
        boundary,
        systemHash: row.system_hash,
      },
    };
  }

  /** Whether the envelope holds a completed call `id` of run `runId`. */
  isCompleted(runId: string, id: string): boolean {
    const row = this.#statements.call.get(runId, id) as { completed_at: number | null } | undefined;
    return row !== undefined && row.completed_at !== null;
  }

  close(): void {
    this.#db.close();
  }
}

interface CheckpointRow {
  readonly boundary: string;
  readonly seq: number;
  readonly message_cursor: number;
  readonly system_hash: string;
  readonly metrics: string;
  readonly at: number;
}

/**
 * One run's writer. It remembers which message objects it has persisted, so a
 * checkpoint writes only the messages after the first one that changed (the loop appends,
 * and only ever replaces the last user message or, after a repair, the whole transcript).
 */
class RunRecorder implements RunDurability {
  readonly #persisted: MessageParam[] = [];
  /** Ids of the run's completed calls, loaded once: a checkpoint lists them without a query. */
  readonly #completed: string[];
  #seq: number;

  readonly #db: Database.Database;
  readonly #statements: Statements;
  readonly #runId: string;
  readonly #systemHash: string;

  constructor(db: Database.Database, statements: Statements, runId: string, systemHash: string) {
    this.#db = db;
    this.#statements = statements;
    this.#runId = runId;
    this.#systemHash = systemHash;
    // A resumed run goes on numbering its checkpoints; its stored messages are rewritten
    // once at its first checkpoint (it holds copies, not the objects written before).
    const last = statements.lastCheckpoint.get(runId) as CheckpointRow | undefined;
    this.#seq = last === undefined ? 0 : last.seq + 1;
    this.#completed = (statements.completedIds.all(runId) as { tool_call_id: string }[]).map((row) => row.tool_call_id);
  }

  checkpoint(boundary: CheckpointBoundary, state: CheckpointState): void {
    const { messages, metrics, at } = state;
    let same = 0;
    while (same < this.#persisted.length && same < messages.length && this.#persisted[same] === messages[same])
      same += 1;
    this.#db.transaction(() => {
      this.#statements.deleteMessagesFrom.run(this.#runId, same);
      for (let i = same; i < messages.length; i++)
        this.#statements.insertMessage.run(this.#runId, i, JSON.stringify(messages[i]));
      this.#statements.insertCheckpoint.run(
        this.#runId,
        this.#seq,
        boundary,
        metrics.modelCalls,
        messages.length,
        messages.length,
        this.#systemHash,
        JSON.stringify(metrics),
        at,
        JSON.stringify(this.#completed),
      );
    })();
    this.#seq += 1;
    this.#persisted.length = same;
    for (let i = same; i < messages.length; i++) this.#persisted.push(messages[i]!);
  }

  toolCall(id: string): EnvelopeEntry | undefined {
    const row = this.#statements.call.get(this.#runId, id) as
      | { completed_at: number | null; result: string | null }
      | undefined;
    if (row === undefined) return undefined;
    return row.completed_at === null || row.result === null
      ? { state: 'started' }
      : { state: 'completed', block: JSON.parse(row.result) as ToolResultBlockParam };
  }

  startToolCall(call: ToolUseBlock, at: number): void {
    this.#statements.startCall.run(this.#runId, call.id, call.name, JSON.stringify(call.input), at);
  }

  completeToolCall(id: string, block: ToolResultBlockParam, at: number): void {
    this.#statements.completeCall.run(at, JSON.stringify(block), this.#runId, id);
    this.#completed.push(id);
  }
}
