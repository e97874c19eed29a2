/** The files of a results folder, by name. Only src/results/ opens them. */
export const RUNS_FILE = 'runs.jsonl';
export const CSV_FILE = 'runs.csv';
export const SUMMARY_FILE = 'summary.json';
export const TRACES_FILE = 'traces.jsonl';
/** Beside the run files while a sweep is under way; gone once summary.json is written. */
export const PROGRESS_FILE = 'progress.json';
/** Where and when the sweep ran, and the folder's format version. */
export const META_FILE = 'meta.json';
/** Held by the one process writing the folder (see folder-lock.ts). */
export const LOCK_FILE = 'spiralbench.lock';

/** Every file a results writer replaces; a `<name>.tmp-<pid>` beside one of them is a write that never finished. */
export const RESULTS_FILES = [RUNS_FILE, CSV_FILE, SUMMARY_FILE, TRACES_FILE, PROGRESS_FILE, META_FILE] as const;
