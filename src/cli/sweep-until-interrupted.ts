import { shellWord } from '../bench/replay-command.js';
import { runSweep, SweepInterrupted, type SweepOptions, type SweepSummary } from '../bench/sweep.js';
import { argvForRecord } from './base-url.js';
import { RunInterrupted } from './run-interrupted.js';

/**
 * The sweep, stopped cleanly by the first Ctrl-C (the runs in flight finish and are
 * written); the handler is then gone, so a second Ctrl-C stops the process at once.
 */
export async function sweepUntilInterrupted(options: Omit<SweepOptions, 'signal'>): Promise<SweepSummary> {
  const interrupt = new AbortController();
  const onSigint = () => {
    process.stderr.write('\nstopping after the runs in flight (Ctrl-C again to stop now)...\n');
    interrupt.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    return await runSweep({ ...options, signal: interrupt.signal });
  } catch (error) {
    if (!(error instanceof SweepInterrupted)) throw error;
    const again = [
      'spiralbench',
      ...argvForRecord(process.argv.slice(2)).filter((arg) => arg !== '--resume'),
      '--resume',
    ]
      .map(shellWord)
      .join(' ');
    throw new RunInterrupted(
      `interrupted: ${error.done} of ${error.total} runs are written to ${options.outDir}.\nResume with: ${again}`,
    );
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
