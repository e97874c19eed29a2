import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensembleAtPriorEdge } from '../sweep/prior-edge-ensemble.js';
import { runSweep, SweepInterrupted, type SweepOptions } from '../sweep/sweep.js';
import { RunInterrupted } from './run-interrupted.js';
import { PRIOR_ONLY_PARAMETERS, type PriorEdge, priorEdgeValues } from '../model/simulated/persona-priors.js';
import {
  type ComparedConclusions,
  comparedConclusions,
  type PriorSensitivity,
  priorSensitivity,
} from '../report/prior-sensitivity.js';
import { readRunConclusions, type RunConclusions } from '../report/run-conclusions.js';
import type { PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import { wallClock } from '../clock/wall-clock.js';
import { UserInputError } from '../user-input-error.js';

/**
 * `--sensitivity` needs what it moves and what it compares: an ensemble (whose members'
 * priors it moves), the simulated model (a real model has no persona), a whole sweep (a
 * shard concludes nothing) and a baseline with at least one other arm.
 */
export function checkSensitivity(flags: {
  readonly ensemble?: string;
  readonly shard?: unknown;
  readonly arms: number;
  readonly simulated: boolean;
}): void {
  if (flags.ensemble === undefined)
    throw UserInputError.single(
      '--sensitivity',
      '',
      "used with --ensemble (it moves the prior-only parameters of the ensemble's members), e.g. --ensemble default",
    );
  if (!flags.simulated)
    throw UserInputError.single('--sensitivity', '', 'the simulated model (leave out --model and --live)');
  if (flags.shard !== undefined)
    throw UserInputError.single('--sensitivity', '', 'a whole sweep (leave out --shard: a shard concludes nothing)');
  if (flags.arms < 2)
    throw UserInputError.single('--sensitivity', '', 'at least two arms (a baseline and an arm to compare with it)');
}

/** The main sweep's definition, re-run at each edge: same scenarios, arms, seeds and streams. */
export type EdgeSweepOptions = Omit<
  SweepOptions,
  'ensemble' | 'outDir' | 'resume' | 'discard' | 'defaultFolder' | 'signal' | 'onRecord' | 'onProgress' | 'shard'
> & {
  readonly ensemble: PersonaEnsemble;
  /** The main sweep's folder, named when an edge's sweep is interrupted. */
  readonly outDir: string;
};

/**
 * `run --sensitivity`: the same cells re-run twice, with every member's prior-only
 * parameters at the low and then the high edge of their ranges, each into a folder of its
 * own that is removed afterwards (the edge runs are not the sweep's runs), and each cell's
 * success conclusion and each arm's harmful-rate conclusion compared with the main
 * sweep's. Progress goes to stderr.
 *
 * @example
 * const sensitivity = await sweepPriorEdges({ scenarios, arms, seeds: 200, ensemble }, conclusions);
 */
export async function sweepPriorEdges(
  options: EdgeSweepOptions,
  main: RunConclusions,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<PriorSensitivity> {
  const edges = {} as Record<PriorEdge, ComparedConclusions>;
  // The first Ctrl-C stops an edge's sweep as it stops the main one, and says what is left.
  const interrupt = new AbortController();
  const onSigint = () => {
    stderr.write('\nstopping after the runs in flight (Ctrl-C again to stop now)...\n');
    interrupt.abort();
  };
  process.once('SIGINT', onSigint);
  const interrupted = () =>
    new RunInterrupted(
      `interrupted while re-running the sweep at the priors' edges (--sensitivity). The sweep itself is whole in ${options.outDir}, its summary.json without a sensitivity; the edge runs are not kept, so --resume has nothing to continue: run the same command with --overwrite to sweep again with the sensitivity.`,
    );
  try {
    for (const edge of ['low', 'high'] as const) {
      // Stopped while the last edge's runs were all under way: the next is not started.
      if (interrupt.signal.aborted) throw interrupted();
      const started = wallClock.ms();
      stderr.write(`sensitivity: re-running the sweep with the prior-only parameters at the ${edge} edge...\n`);
      const dir = mkdtempSync(join(tmpdir(), `spiralbench-priors-${edge}-`));
      try {
        const summary = await runSweep({
          ...options,
          ensemble: ensembleAtPriorEdge(options.ensemble, edge),
          outDir: dir,
          signal: interrupt.signal,
        });
        edges[edge] = comparedConclusions(await readRunConclusions(dir, summary));
      } catch (error) {
        throw error instanceof SweepInterrupted ? interrupted() : error;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      stderr.write(`sensitivity: ${edge} edge done in ${((wallClock.ms() - started) / 1000).toFixed(1)} s\n`);
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  const low = priorEdgeValues('low');
  const high = priorEdgeValues('high');
  const parameters = PRIOR_ONLY_PARAMETERS.map((parameter) => ({
    parameter,
    low: low[parameter]!,
    high: high[parameter]!,
  }));
  return priorSensitivity(comparedConclusions(main), edges, parameters);
}
