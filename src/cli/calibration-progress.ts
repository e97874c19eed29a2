import cliProgress from 'cli-progress';
import type { CalibrationProgress } from '../calibration/calibrate.js';
import { canRedraw, type TerminalEnv } from './terminal-capabilities.js';

const STEPS = 1000;

/**
 * Progress of a fit on stderr. Its length is not known in advance: the bar follows the
 * tolerance on a log scale, from the first iteration's down to 1, with the candidates
 * simulated so far. Without a terminal that can redraw (a log, CI, TERM=dumb), one plain
 * line per iteration.
 */
export function calibrationProgress(
  stream: NodeJS.WriteStream = process.stderr,
  env: TerminalEnv = process.env,
): (progress: CalibrationProgress) => void {
  let first: number | undefined;
  const share = (epsilon: number): number => {
    first ??= epsilon;
    return first <= 1 ? 1 : Math.min(1, Math.max(0, 1 - Math.log(epsilon) / Math.log(first)));
  };
  const describe = (progress: CalibrationProgress): string =>
    progress.stage === 'prior'
      ? 'drawing from the priors'
      : progress.stage === 'validation'
        ? 'running the members on fresh seeds'
        : `iteration ${progress.iteration}, tolerance ${progress.epsilon.toPrecision(3)} (target 1)`;
  if (canRedraw(stream, env)) {
    const bar = new cliProgress.SingleBar(
      { stream, format: '{bar} {stage} · {candidates} candidates', hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(STEPS, 0, { stage: 'drawing from the priors', candidates: 0 });
    return (progress) => {
      const value =
        progress.stage === 'moves' || progress.stage === 'done'
          ? Math.round(STEPS * share(progress.epsilon))
          : undefined;
      bar.update(value ?? (progress.stage === 'validation' ? STEPS : 0), {
        stage: describe(progress),
        candidates: progress.candidates,
      });
      if (progress.stage === 'validation') bar.stop();
    };
  }
  return (progress) => {
    if (progress.stage === 'prior' || progress.stage === 'done') return;
    stream.write(`${describe(progress)} · ${progress.candidates} candidates simulated\n`);
  };
}
