import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../durability/checkpoint-store.js';
import type { Scenario } from '../scenarios/loader.js';
import type { Arm } from '../arms/arms.js';
import { crashAndResume, type CrashResumeRecord, type ResumeMode } from './crash-resume.js';
import { writeFileAtomic } from '../results/atomic-write.js';

export interface CrashResumeOptions {
  readonly scenarios: readonly Scenario[];
  readonly arms: readonly Arm[];
  readonly seeds: number;
  /** @default 1 */
  readonly baseSeed?: number;
  /** @default 0 */
  readonly sweepSeed?: number;
  /** Where checkpoints live: in memory, or a journal file (checkpoints.jsonl) in `outDir`. @default 'memory' */
  readonly store?: 'memory' | 'file';
  readonly outDir: string;
  readonly onProgress?: (done: number, total: number) => void;
}

/** One (scenario, arm, mode) cell of a crash-resume sweep. */
export interface CrashResumeCell {
  readonly scenario: string;
  readonly arm: string;
  readonly mode: ResumeMode;
  readonly runs: number;
  readonly crashes: Readonly<Record<CrashResumeRecord['crash']['kind'], number>>;
  readonly success: number;
  readonly uncrashed_success: number;
  /** Runs that asked a person: escalated, or halted waiting_on_human by a resume-unsafe call. */
  readonly waiting_on_human: number;
  /** Writes the resume itself repeated (a side-effecting call that ran before the crash, run again). */
  readonly resume_duplicates: number;
  /** Duplicated writes in the final world, whatever caused them (the agent's own retries too), and in the uncrashed runs. */
  readonly duplicate_side_effects: number;
  readonly uncrashed_duplicate_side_effects: number;
  readonly lost_results: number;
  readonly replayed: number;
}

const MODES: readonly ResumeMode[] = ['envelope', 'naive'];

/**
 * Crashes every run of scenario × arm × seed once at a seeded point and resumes it, both
 * through the envelope and naively (the same crash point for both), writing one record
 * per resume to crash-resume.jsonl and the per-cell tallies to crash-resume-summary.json.
 */
export async function runCrashResumeSweep(options: CrashResumeOptions): Promise<CrashResumeCell[]> {
  const base = options.baseSeed ?? 1;
  mkdirSync(options.outDir, { recursive: true });
  const storePath = options.store === 'file' ? join(options.outDir, 'checkpoints.jsonl') : ':memory:';
  // A sweep starts from an empty journal: an earlier sweep's entries, under the same run
  // ids, would answer this one's tool calls.
  if (storePath !== ':memory:') rmSync(storePath, { force: true });
  const store = new CheckpointStore(storePath);
  const cells: CrashResumeCell[] = [];
  let lines = '';
  const total = options.scenarios.length * options.arms.length * options.seeds * MODES.length;
  let done = 0;
  try {
    for (const scenario of options.scenarios) {
      for (const arm of options.arms) {
        for (const mode of MODES) {
          const records: CrashResumeRecord[] = [];
          for (let seed = base; seed < base + options.seeds; seed++) {
            const record = await crashAndResume(store, scenario, arm, seed, options.sweepSeed ?? 0, mode);
            records.push(record);
            lines += `${JSON.stringify(record)}\n`;
            options.onProgress?.((done += 1), total);
          }
          cells.push(tally(scenario.id, arm.name, mode, records));
        }
      }
    }
  } finally {
    store.close();
  }
  writeFileAtomic(join(options.outDir, 'crash-resume.jsonl'), lines);
  writeFileAtomic(join(options.outDir, 'crash-resume-summary.json'), `${JSON.stringify(cells, null, 2)}\n`);
  return cells;
}

function tally(
  scenario: string,
  arm: string,
  mode: ResumeMode,
  records: readonly CrashResumeRecord[],
): CrashResumeCell {
  const count = (test: (record: CrashResumeRecord) => boolean) => records.filter(test).length;
  const sum = (
    field:
      | 'duplicate_side_effects'
      | 'lost_results'
      | 'replayed'
      | 'resume_duplicates'
      | 'uncrashed_duplicate_side_effects',
  ) => records.reduce((total, record) => total + record[field], 0);
  return {
    scenario,
    arm,
    mode,
    runs: records.length,
    crashes: {
      checkpoint: count((record) => record.crash.kind === 'checkpoint'),
      before_tool: count((record) => record.crash.kind === 'before_tool'),
      mid_tool: count((record) => record.crash.kind === 'mid_tool'),
      after_tool: count((record) => record.crash.kind === 'after_tool'),
    },
    success: count((record) => record.verdict === 'success'),
    uncrashed_success: count((record) => record.uncrashed_verdict === 'success'),
    waiting_on_human: count((record) => record.outcome === 'waiting_on_human' || record.outcome === 'escalated'),
    resume_duplicates: sum('resume_duplicates'),
    duplicate_side_effects: sum('duplicate_side_effects'),
    uncrashed_duplicate_side_effects: sum('uncrashed_duplicate_side_effects'),
    lost_results: sum('lost_results'),
    replayed: sum('replayed'),
  };
}
