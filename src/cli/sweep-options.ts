import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { wallClock } from '../clock/wall-clock.js';
import { loadScenarioSources, type ScenarioSource } from '../sweep/scenario-source.js';
import type { SweepOptions } from '../sweep/sweep.js';
import type { SweepSummary } from '../sweep/sweep-summary.js';
import { UserInputError } from '../user-input-error.js';
import { optionAlias } from './option-alias.js';
import { outputFolder } from './output-folder.js';
import { commaList, nonNegativeInt, seedCount, workerCount } from './parse.js';
import type { SweepMeta } from './sweep-meta.js';
import { writeSweepMeta } from './sweep-meta.js';
import { type SweepStop, sweepUntilInterrupted } from './sweep-until-interrupted.js';

/** The flags every sweep command takes (`run`, `arena`), as commander hands them over. */
export interface SweepFlags {
  readonly scenarios: string[];
  readonly agent: string[];
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly workers: number;
  readonly out: string;
  readonly resume: boolean;
  readonly overwrite: boolean;
  readonly ensemble?: string;
}

/**
 * The options every sweep command takes, one definition each; a command adds them where
 * its help lists them, with the words that differ (its default seeds, folder and the
 * thing --resume continues).
 */
export const sweepOptions = {
  scenarios(command: Command): Command {
    return command
      .requiredOption(
        '-s, --scenarios <ids>',
        'scenario ids or .yaml paths, comma-separated (see `spiralbench list`; --scenario is an alias)',
        commaList,
      )
      .addOption(optionAlias('--scenario <ids>', 'scenarios', commaList));
  },

  agent(command: Command, as: string): Command {
    return command.option(
      '--agent <path>',
      `your own agent (a defineAgent module, .ts or .js; path#export picks an export) ${as}; repeatable or comma-separated (docs/agents.md)`,
      (value: string, previous: string[]) => [...previous, ...commaList(value)],
      [] as string[],
    );
  },

  ensemble(command: Command, help: string): Command {
    return command.option('--ensemble <name>', help);
  },

  seeds(command: Command, seeds: number): Command {
    return command
      .option('-n, --seeds <count>', 'runs per scenario and arm (at most 1000000000)', seedCount, seeds)
      .option(
        '--first-seed <n>',
        'first run seed; runs use n, n+1, ... (n + seeds at most 2^53 - 1; --seed is an alias)',
        nonNegativeInt,
        1,
      )
      .addOption(optionAlias('--seed <n>', 'firstSeed', nonNegativeInt))
      .option('--sweep-seed <n>', 'namespace of every random stream in the sweep', nonNegativeInt, 0);
  },

  workers(command: Command): Command {
    return command.option(
      '-w, --workers <n>',
      'worker threads (1 runs inline; at most 4 per core); results are identical for any count',
      workerCount,
      availableParallelism(),
    );
  },

  out(command: Command, folder: string, help: string): Command {
    return command.option('-o, --out <dir>', help, outputFolder, folder);
  },

  resume(command: Command, what: string, overwrite: string): Command {
    return command
      .option(
        '--resume',
        `continue the interrupted ${what} in --out (same flags): finished runs are kept, the rest are run`,
        false,
      )
      .option('--overwrite', overwrite, false)
      .addOption(optionAlias('--discard', 'overwrite'));
  },
};

/** The scenarios named, loaded; naming one twice is an error, not a doubled cell. */
export async function distinctScenarios(ids: readonly string[]): Promise<ScenarioSource[]> {
  const scenarios = await loadScenarioSources(ids);
  const repeated = scenarios.map(({ scenario }) => scenario.id).filter((id, i, all) => all.indexOf(id) !== i);
  if (repeated.length > 0)
    throw UserInputError.single(
      '--scenarios',
      '',
      `each scenario once; repeated: ${[...new Set(repeated)].join(', ')}`,
    );
  return scenarios;
}

/** A sweep run to its end (or a clean stop), with how long it took and on how many workers. */
export interface TimedSweep {
  readonly summary: SweepSummary;
  readonly seconds: number;
  /** The workers the sweep started with (fewer than asked where the sweep is smaller). */
  readonly workers: number;
}

/**
 * Runs the sweep until it ends or Ctrl-C stops it, then `close` (whether it ended or not),
 * then writes its meta.json (when it ran, for how long, on how many workers, and `meta`'s
 * extra fields).
 */
export async function timedSweep(
  options: Omit<SweepOptions, 'signal' | 'onStart'> & { readonly outDir: string; readonly stop?: SweepStop },
  meta: (run: { readonly workers: number; readonly summary: SweepSummary }) => Partial<SweepMeta> = () => ({}),
  close: () => Promise<void> | void = () => {},
): Promise<TimedSweep> {
  const startedAt = wallClock.iso();
  const started = wallClock.ms();
  let workers = options.workers ?? 1;
  const summary = await sweepUntilInterrupted({ ...options, onStart: (start) => (workers = start.workers) }).finally(
    close,
  );
  const seconds = (wallClock.ms() - started) / 1000;
  writeSweepMeta(options.outDir, {
    started_at: startedAt,
    finished_at: wallClock.iso(),
    wall_seconds: Math.round(seconds * 10) / 10,
    workers,
    ...meta({ workers, summary }),
  });
  return { summary, seconds, workers };
}

/** The stderr line a sweep ends with: stdout stays the same bytes for the same sweep. */
export function sweepTimeLine(runs: number, seconds: number, how: string): string {
  const peakMb = process.resourceUsage().maxRSS / 1024;
  return `${runs} runs in ${seconds.toFixed(1)} s (${Math.round(runs / seconds)} runs/s, ${how}) · peak memory ${peakMb.toFixed(0)} MB\n`;
}
