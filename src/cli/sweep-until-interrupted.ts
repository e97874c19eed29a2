import { shellWord } from '../sweep/replay-command.js';
import { runSweep, SweepInterrupted, type SweepOptions } from '../sweep/sweep.js';
import type { SweepSummary } from '../sweep/sweep-summary.js';
import { isDiskFull } from '../results/results-fs.js';
import { argvForRecord } from './base-url.js';
import { RunInterrupted } from './run-interrupted.js';
import { cliCommand } from './invocation.js';

/** A reason of the caller's own to stop the sweep, as cleanly as a Ctrl-C does. */
export interface SweepStop {
  /** Aborted to stop: no new run starts; the ones in flight finish and are written. */
  readonly signal: AbortSignal;
  /** What to throw once stopped, told how far the sweep got and the command that resumes it. */
  readonly error: (stopped: { readonly done: number; readonly total: number; readonly resume: string }) => Error;
}

/** Either reason to stop: the signal of whichever comes first, and its error. */
export function eitherStop(first: SweepStop | undefined, second: SweepStop | undefined): SweepStop | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return {
    signal: AbortSignal.any([first.signal, second.signal]),
    error: (stopped) => (first.signal.aborted ? first.error(stopped) : second.error(stopped)),
  };
}

/**
 * The sweep, stopped cleanly by the first Ctrl-C (the runs in flight finish and are
 * written); the handler is then gone, so a second Ctrl-C stops the process at once.
 * `stop` stops it the same way, for a reason of the caller's.
 */
export async function sweepUntilInterrupted({
  stop,
  ...options
}: Omit<SweepOptions, 'signal'> & { readonly stop?: SweepStop }): Promise<SweepSummary> {
  const interrupt = new AbortController();
  const onSigint = () => {
    process.stderr.write('\nstopping after the runs in flight (Ctrl-C again to stop now)...\n');
    interrupt.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    const signal = stop === undefined ? interrupt.signal : AbortSignal.any([interrupt.signal, stop.signal]);
    return await runSweep({ ...options, signal });
  } catch (error) {
    const full = isDiskFull(error);
    if (!(error instanceof SweepInterrupted) && !full) throw error;
    const again = `${cliCommand()} ${[
      ...argvForRecord(process.argv.slice(2)).filter((arg) => !['--resume', '--overwrite', '--discard'].includes(arg)),
      '--resume',
    ]
      .map(shellWord)
      .join(' ')}`;
    // Every chunk synced before the write that failed is kept (progress.json says which), so a resume loses nothing.
    if (full)
      throw new Error(
        `${(error as Error).message}. The runs written before are kept in ${options.outDir}: free space, then resume with: ${again}`,
        { cause: error },
      );
    if (!(error instanceof SweepInterrupted)) throw error;
    if (stop?.signal.aborted === true) throw stop.error({ done: error.done, total: error.total, resume: again });
    throw new RunInterrupted(
      `interrupted: ${error.done} of ${error.total} runs are written to ${options.outDir}.\nResume with: ${again}`,
    );
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
