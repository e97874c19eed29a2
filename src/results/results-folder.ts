import { BATCH_JOURNAL_FILE } from './batch-journal.js';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserInputError } from '../user-input-error.js';
import { acquireFolderLock, processAlive, type FolderLock } from './folder-lock.js';
import type { StoredProgress, StoredSweepIdentity } from './progress-schema.js';
import { readProgress } from './results-reader.js';
import { SERVED_MODEL } from './served-model.js';
import { PROGRESS_FILE, RESULTS_FILES, RUNS_FILE, SUMMARY_FILE } from './results-files.js';
import { NODE_FS, type ResultsFs } from './results-fs.js';
import { ResultsWriter } from './results-writer.js';

/**
 * What a command means to do with its output folder: start a sweep there, continue the
 * interrupted one (`--resume`), start over and lose what it holds (`--overwrite`), start
 * a sweep in the default folder (`results/latest`, where a finished sweep is the latest
 * and is replaced, an unfinished one is not), or merge shards in, into a folder holding no
 * sweep or (`--overwrite`) over one.
 */
export type FolderIntent = 'sweep' | 'resume' | 'discard' | 'latest' | 'merge' | 'merge-discard';

/** An output folder this process holds the lock of, with what it found there. */
export interface ResultsFolder {
  readonly dir: string;
  /** The interrupted sweep to continue (intent 'resume' only). */
  readonly progress: StoredProgress | undefined;
  /** The sweep's writer (intents 'sweep', 'resume', 'discard'). */
  sweepWriter(identity: StoredSweepIdentity): ResultsWriter;
  /** The merge's writer (intents 'merge', 'merge-discard'). */
  mergeWriter(): ResultsWriter;
  /** Stops any writer still open (a merge's temporary files go) and gives up the lock. */
  release(): void;
}

export interface ClaimOptions {
  /** Where notes go (a stale lock taken over). @default stderr */
  readonly note?: (line: string) => void;
  readonly fs?: ResultsFs;
}

/**
 * `--resume` and `--overwrite` contradict each other; the intent of the two flags, or a
 * UserInputError. `defaultFolder`: the user named no folder, so the command's own (`results/latest`)
 * is used, whose finished sweep a new one replaces; a folder the user names is theirs to keep.
 */
export function sweepIntent(resume: boolean, overwrite: boolean, defaultFolder = false): FolderIntent {
  if (resume && overwrite)
    throw UserInputError.single(
      '--overwrite',
      '',
      'left out with --resume: --resume continues the interrupted sweep, --overwrite deletes it',
    );
  return resume ? 'resume' : overwrite ? 'discard' : defaultFolder ? 'latest' : 'sweep';
}

/**
 * Takes an output folder for writing: makes it, takes its lock (a folder another live
 * process writes is refused), clears temporary files a dead writer left, and checks that
 * the intent loses nothing: a new sweep or a merge is refused where a sweep's runs,
 * finished or interrupted, would be lost, naming --resume and --overwrite.
 *
 * @example
 * const folder = claimResultsFolder('results/latest', sweepIntent(flags.resume, flags.overwrite));
 * try { ... folder.sweepWriter(identity) ... } finally { folder.release(); }
 */
export function claimResultsFolder(dir: string, intent: FolderIntent, options: ClaimOptions = {}): ResultsFolder {
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw UserInputError.single('--out', '', `a folder; ${dir} is a file`);
  if (intent === 'resume' && !existsSync(dir))
    throw UserInputError.single(join(dir, PROGRESS_FILE), '', 'an interrupted sweep to resume; this folder has none');
  mkdirSync(dir, { recursive: true });
  const lock = acquireFolderLock(dir, options.note ?? ((line) => process.stderr.write(`${line}\n`)));
  try {
    removeDeadTemps(dir);
    const progress = checkIntent(dir, intent);
    // A sweep started afresh: the batches an older one sent are not its own.
    if (intent !== 'resume' && !merges(intent)) rmSync(join(dir, BATCH_JOURNAL_FILE), { force: true });
    return heldFolder(dir, intent, progress, lock, options.fs ?? NODE_FS);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function heldFolder(
  dir: string,
  intent: FolderIntent,
  progress: StoredProgress | undefined,
  lock: FolderLock,
  fs: ResultsFs,
): ResultsFolder {
  let writer: ResultsWriter | undefined;
  const open = (made: ResultsWriter) => {
    if (writer !== undefined) throw new Error(`${dir} already has a writer`);
    writer = made;
    return made;
  };
  return {
    dir,
    progress,
    sweepWriter: (identity) => {
      if (merges(intent)) throw new Error('a merge folder has no sweep writer');
      return open(ResultsWriter.forSweep(dir, identity, progress, fs));
    },
    mergeWriter: () => {
      if (!merges(intent)) throw new Error('a sweep folder has no merge writer');
      return open(ResultsWriter.forMerge(dir, fs));
    },
    release: () => {
      writer?.abandon();
      lock.release();
    },
  };
}

function merges(intent: FolderIntent): boolean {
  return intent === 'merge' || intent === 'merge-discard';
}

/** The interrupted sweep to resume, for 'resume'; for 'sweep' and 'merge', a refusal where runs would be lost. */
function checkIntent(dir: string, intent: FolderIntent): StoredProgress | undefined {
  if (intent === 'discard' || intent === 'merge-discard') return undefined;
  const progress = readProgress(dir);
  if (intent === 'resume') {
    if (progress !== null) return progress;
    // A sweep stopped before its first runs were written (a spend limit at its first call,
    // a Ctrl-C, a batched sweep killed mid-batch, whose batches are on record): resumed from
    // its first run, as what it printed says.
    const runs = join(dir, RUNS_FILE);
    const nothingWritten = !existsSync(runs) || statSync(runs).size === 0;
    if (
      !existsSync(join(dir, SUMMARY_FILE)) &&
      (existsSync(join(dir, BATCH_JOURNAL_FILE)) || (existsSync(runs) && nothingWritten))
    )
      return undefined;
    throw UserInputError.single(
      join(dir, PROGRESS_FILE),
      '',
      existsSync(join(dir, SUMMARY_FILE))
        ? 'an interrupted sweep to resume; the sweep in this folder finished (summary.json is there)'
        : 'an interrupted sweep to resume; this folder has none',
    );
  }
  const served = progress?.sweep.model === SERVED_MODEL;
  const elsewhere =
    intent === 'merge'
      ? served
        ? 'merge into another folder (a served sweep cannot be continued)'
        : 'finish it with `spiralbench run` and --resume, or merge into another folder'
      : served
        ? 'it is a served sweep, which cannot be continued: add --overwrite to delete its runs and start over, or use another --out'
        : 'add --resume to continue it (same flags), or --overwrite to delete its runs and start over';
  if (progress !== null && progress.runs_done > 0)
    throw UserInputError.single(
      dir,
      '',
      `a folder without an interrupted sweep; it holds one with ${progress.runs_done} finished runs, which this would delete: ${elsewhere}`,
    );
  const instead = intent === 'merge' ? 'merge into another folder' : 'use another --out';
  // A finished sweep is often the one worth most (a CI baseline): it is replaced only when asked.
  if (progress === null && existsSync(join(dir, SUMMARY_FILE))) {
    if (intent === 'latest') return undefined;
    throw UserInputError.single(
      dir,
      '',
      `a folder without a finished sweep; it holds one (its summary.json is there), which this would replace: add --overwrite to replace it, or ${instead}`,
    );
  }
  // Batches sent and paid for, by a sweep that has not finished: resumed, they are not sent again.
  if (intent !== 'merge' && existsSync(join(dir, BATCH_JOURNAL_FILE)) && !existsSync(join(dir, SUMMARY_FILE)))
    throw UserInputError.single(
      dir,
      '',
      `a folder without an interrupted batched sweep; its ${BATCH_JOURNAL_FILE} records batches already sent, which this would forget: add --resume to continue it (same flags, with --batch), or --overwrite to start over, or ${instead}`,
    );
  // Runs with neither a summary nor a progress file: a sweep that did not finish and cannot be resumed.
  const runs = join(dir, RUNS_FILE);
  if (progress === null && existsSync(runs) && statSync(runs).size > 0)
    throw UserInputError.single(
      dir,
      '',
      `a folder without unfinished runs; its runs.jsonl has runs but no summary.json, which this would delete: add --overwrite to delete them and start over, or ${instead}`,
    );
  return undefined;
}

const TEMP = new RegExp(`^(?:${RESULTS_FILES.map((name) => name.replace('.', '\\.')).join('|')})\\.tmp-(\\d+)$`);

/** Temporary files of a writer that died before renaming them (the lock is ours, so no live writer is in here). */
function removeDeadTemps(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const pid = TEMP.exec(entry)?.[1];
    if (pid !== undefined && !alive(Number(pid))) rmSync(join(dir, entry), { force: true });
  }
}

function alive(pid: number): boolean {
  return pid !== process.pid && processAlive(pid);
}
