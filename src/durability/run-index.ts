import type { CheckpointBoundary } from '../loop/durability.js';

/** A run's last checkpoint, as the index keeps it. */
export interface CheckpointHead {
  readonly boundary: CheckpointBoundary;
  readonly systemHash: string;
  /** JSON of the run's metrics. */
  readonly metrics: string;
  readonly at: number;
}

interface CallState {
  readonly startedAt: number;
  /** JSON of the result block; null while the call is only started. */
  readonly result: string | null;
}

/**
 * One run as a checkpoint store's index holds it: the transcript as of its last
 * checkpoint, that checkpoint, and its tool calls. Messages, metrics and results are kept
 * as the JSON they were written as, so a read returns a copy as it was then, whatever the
 * loop has done to its objects since. Writing a change and replaying a journal both go
 * through these methods, so a reopened store answers as the one that wrote the file.
 */
export class RunIndex {
  /** JSON of each message, in order. */
  readonly #messages: string[] = [];
  #last: CheckpointHead | undefined;
  readonly #calls = new Map<string, CallState>();

  get messageCount(): number {
    return this.#messages.length;
  }

  get lastCheckpoint(): CheckpointHead | undefined {
    return this.#last;
  }

  /** The messages as of the last checkpoint, as JSON. */
  messages(): readonly string[] {
    return this.#messages;
  }

  /** Keeps the messages before `from` (at most `messageCount`) and appends `messages` after them. */
  checkpoint(from: number, messages: readonly string[], head: CheckpointHead): void {
    this.#messages.length = from;
    for (const message of messages) this.#messages.push(message);
    this.#last = head;
  }

  /** A call started, or started again: a result recorded before is forgotten. */
  startCall(id: string, at: number): void {
    this.#calls.set(id, { startedAt: at, result: null });
  }

  /** Records the result of a started call; a call never started stays unknown. */
  completeCall(id: string, result: string): void {
    const call = this.#calls.get(id);
    if (call !== undefined) this.#calls.set(id, { startedAt: call.startedAt, result });
  }

  /** A call's result as JSON; null while it is only started, undefined if it never started. */
  result(id: string): string | null | undefined {
    return this.#calls.get(id)?.result;
  }

  /** Ids of the completed calls, in the order they started (ties by id). */
  completedIds(): string[] {
    const completed = [...this.#calls].filter(([, call]) => call.result !== null);
    completed.sort(([a, left], [b, right]) => left.startedAt - right.startedAt || (a < b ? -1 : a > b ? 1 : 0));
    return completed.map(([id]) => id);
  }
}
