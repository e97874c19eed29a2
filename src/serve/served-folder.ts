import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { claimResultsFolder, type ClaimOptions, type ResultsFolder } from '../results/results-folder.js';
import { RUNS_FILE, SUMMARY_FILE } from '../results/results-files.js';
import { readProgress } from '../results/results-reader.js';
import { UserInputError } from '../user-input-error.js';
import { SERVED_MODEL } from '../results/served-model.js';

/**
 * Takes `serve`'s results folder: its lock, and a check that serving there loses nothing.
 * Serve cannot continue a sweep, and it rewrites the whole folder once the first run ends,
 * so a folder holding any runs (a finished sweep, an interrupted one, or stray runs) is
 * refused unless `overwrite` says to delete them. Nothing in the folder is changed here:
 * the writer opens when the first run ends (served-results.ts).
 *
 * @example
 * const folder = claimServedFolder('results/served', flags.overwrite);
 */
export function claimServedFolder(dir: string, overwrite: boolean, options: ClaimOptions = {}): ResultsFolder {
  // 'discard' only takes the lock and skips run's own checks, whose advice (--resume) serve cannot follow.
  const folder = claimResultsFolder(dir, 'discard', options);
  if (overwrite) return folder;
  try {
    refuseRunsToLose(dir);
    return folder;
  } catch (error) {
    folder.release();
    throw error;
  }
}

function refuseRunsToLose(dir: string): void {
  const instead = 'use another --out, or add --overwrite to delete them and start over';
  if (existsSync(join(dir, SUMMARY_FILE)))
    throw UserInputError.single(
      dir,
      '',
      `a folder without a sweep's runs; it holds a finished sweep (summary.json), which serving here would delete: ${instead}`,
    );
  const progress = readProgress(dir);
  if (progress !== null && progress.runs_done > 0)
    throw UserInputError.single(
      dir,
      '',
      progress.sweep.model === SERVED_MODEL
        ? `a folder without a sweep's runs; it holds an interrupted served sweep with ${progress.runs_done} ended runs, which serving here would delete (serve cannot continue a sweep): ${instead}`
        : `a folder without a sweep's runs; it holds an interrupted sweep with ${progress.runs_done} finished runs, which serving here would delete (\`spiralbench run\` with its flags and --resume continues it): ${instead}`,
    );
  const runs = join(dir, RUNS_FILE);
  if (progress === null && existsSync(runs) && statSync(runs).size > 0)
    throw UserInputError.single(
      dir,
      '',
      `a folder without a sweep's runs; its runs.jsonl has runs but no summary.json, which serving here would delete: ${instead}`,
    );
}
