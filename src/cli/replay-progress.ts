import cliProgress from 'cli-progress';
import { canRedraw, type TerminalEnv } from './terminal-capabilities.js';

/** Runs from which a log (no redrawing terminal) gets progress lines. */
const LONG_REPLAY = 1000;

/**
 * Progress of runs being run again (behaviour, calibrate --from) on stderr: a bar on a
 * terminal that can redraw, else, for a long replay, a plain line at every tenth. `stop` clears the bar.
 */
export function replayProgress(
  what: string,
  stream: NodeJS.WriteStream = process.stderr,
  env: TerminalEnv = process.env,
): { readonly update: (done: number, total: number) => void; readonly stop: () => void } {
  if (canRedraw(stream, env)) {
    let bar: cliProgress.SingleBar | undefined;
    return {
      update(done, total) {
        if (bar === undefined) {
          bar = new cliProgress.SingleBar(
            { stream, format: `{bar} {value}/{total} ${what}`, hideCursor: true, clearOnComplete: true },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, 0);
        }
        bar.update(done);
      },
      stop: () => bar?.stop(),
    };
  }
  let shown = 0;
  return {
    update(done, total) {
      // A log gets lines only for a long replay: a short one would bury its own table.
      if (total < LONG_REPLAY) return;
      const tenth = Math.floor((10 * done) / total);
      if (tenth > shown || done === total) {
        shown = tenth;
        stream.write(`${done}/${total} ${what}\n`);
        if (done === total) shown = 11;
      }
    },
    stop: () => {},
  };
}
