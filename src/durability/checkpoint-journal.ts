import { readFileSync } from 'node:fs';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { CHECKPOINT_BOUNDARIES } from '../loop/durability.js';
import type { RunMetrics } from '../loop/outcome.js';
import { parseWith, preview } from '../results/input-problems.js';
import { NODE_FS, type ResultsFs } from '../results/results-fs.js';
import { UserInputError } from '../user-input-error.js';

/** A JSON object the loop wrote; what is inside is the loop's, not checked here. */
const jsonObject = <T>() =>
  z.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'a JSON object');

const checkpointEntry = z.object({
  kind: z.literal('checkpoint'),
  run: z.string(),
  boundary: z.enum(CHECKPOINT_BOUNDARIES),
  /** The run's messages before this index are kept; those from it on are replaced by `messages`. */
  from: z.int().nonnegative(),
  systemHash: z.string(),
  metrics: jsonObject<RunMetrics>(),
  at: z.number(),
  /** Ids of the run's completed tool calls. */
  completed: z.array(z.string()),
  messages: z.array(jsonObject<MessageParam>()),
});

const toolStartedEntry = z.object({
  kind: z.literal('tool_started'),
  run: z.string(),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  at: z.number(),
});

const toolCompletedEntry = z.object({
  kind: z.literal('tool_completed'),
  run: z.string(),
  id: z.string(),
  at: z.number(),
  result: jsonObject<ToolResultBlockParam>(),
});

const journalEntry = z.discriminatedUnion('kind', [checkpointEntry, toolStartedEntry, toolCompletedEntry]);

/** One line of a checkpoint journal: one change to the store. */
export type JournalEntry = z.infer<typeof journalEntry>;
type CheckpointEntry = z.infer<typeof checkpointEntry>;
type ToolStartedEntry = z.infer<typeof toolStartedEntry>;
type ToolCompletedEntry = z.infer<typeof toolCompletedEntry>;

/** A checkpoint's line, its messages given as JSON already (the store's index keeps them as text). */
export function checkpointLine(head: Omit<CheckpointEntry, 'messages'>, messages: readonly string[]): string {
  return `${JSON.stringify(head).slice(0, -1)},"messages":[${messages.join(',')}]}\n`;
}

export function toolStartedLine(entry: ToolStartedEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** A completed call's line, its result given as JSON already. */
export function toolCompletedLine(head: Omit<ToolCompletedEntry, 'result'>, result: string): string {
  return `${JSON.stringify(head).slice(0, -1)},"result":${result}}\n`;
}

/** A journal's whole lines, in order, each with its 1-based line number. */
export interface JournalContents {
  readonly entries: readonly { readonly line: number; readonly entry: JournalEntry }[];
  /** Bytes up to the end of the last whole line: where a torn last line starts. */
  readonly length: number;
}

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * Reads a journal's bytes. The last line is dropped when it has no newline or is not JSON:
 * a power cut can tear the last write, and only the last. Any other bad line is damage
 * to the file, refused with its line number rather than skipped.
 */
export function readJournal(path: string, bytes: Buffer): JournalContents {
  if (bytes.toString('latin1', 0, SQLITE_HEADER.length) === SQLITE_HEADER)
    throw UserInputError.single(
      path,
      '',
      'a checkpoint journal (JSON lines); this is an SQLite database, the checkpoint store of earlier versions: give another path, or delete it',
    );
  const entries: { line: number; entry: JournalEntry }[] = [];
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) break;
    const text = bytes.toString('utf8', start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (end === bytes.length - 1) break;
      throw UserInputError.single(
        `${path}:${line}`,
        '',
        `one JSON entry per line; got ${preview(text)} (${(error as Error).message}), and lines follow it: the file is damaged, not cut short by a crash`,
      );
    }
    entries.push({ line, entry: parseWith(journalEntry, value, `${path}:${line}`) });
    start = end + 1;
  }
  return { entries, length: start };
}

/**
 * A journal file open for appending. Each change is one line written with one
 * `writeSync`: once it returns the kernel holds the whole line, so every change survives
 * a process crash; a process killed mid-write leaves at worst that line torn, and the next
 * open drops it. No fsync, as SQLite's WAL with synchronous=NORMAL did none per commit: a
 * power cut may lose the last changes and tear the last line, dropped the same way.
 */
export class JournalFile {
  readonly #fs: ResultsFs;
  readonly #path: string;
  #fd: number | null;
  /** Bytes of whole lines in the file. */
  #length: number;

  private constructor(fs: ResultsFs, path: string, fd: number, length: number) {
    this.#fs = fs;
    this.#path = path;
    this.#fd = fd;
    this.#length = length;
  }

  /** Opens `path`, created if missing, and reads it; a torn last line is cut off the file. */
  static open(path: string, fs: ResultsFs = NODE_FS): { file: JournalFile; contents: JournalContents } {
    const fd = fs.openSync(path, 'a+');
    try {
      const bytes = readFileSync(fd);
      const contents = readJournal(path, bytes);
      if (contents.length < bytes.length) fs.truncateSync(path, contents.length);
      return { file: new JournalFile(fs, path, fd, contents.length), contents };
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  append(line: string): void {
    if (this.#fd === null) throw new Error(`the checkpoint journal ${this.#path} is closed`);
    const bytes = Buffer.from(line);
    try {
      let written = this.#fs.writeSync(this.#fd, bytes, 0, bytes.length);
      // A short write (a disk filling up): the rest, from the byte it stopped at.
      while (written < bytes.length) written += this.#fs.writeSync(this.#fd, bytes, written, bytes.length - written);
    } catch (error) {
      // No part of the line may stay: the next line would join it into a bad line mid-file.
      this.#fs.truncateSync(this.#path, this.#length);
      throw error;
    }
    this.#length += bytes.length;
  }

  close(): void {
    if (this.#fd === null) return;
    this.#fs.closeSync(this.#fd);
    this.#fd = null;
  }
}
