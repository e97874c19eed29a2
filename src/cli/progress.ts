import { formatDollars } from '../report/prices.js';
import cliProgress from 'cli-progress';
import { canRedraw, type TerminalEnv } from './terminal-capabilities.js';

/**
 * Progress for long sweeps on stderr: a bar on a terminal; plain lines at each tenth
 * when output is a log (CI) or a terminal that cannot move its cursor (TERM=dumb), so
 * logs stay readable. Quiet for small sweeps.
 */
export function sweepProgress(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
  env: TerminalEnv = process.env,
  spent?: () => number,
): ((done: number, total: number) => void) | undefined {
  // A real sweep with a spend limit shows what it has spent, however short: its runs take seconds each.
  if (total < 1000 && spent === undefined) return undefined;
  const spend = () => (spent === undefined ? '' : ` · ${formatDollars(spent())} spent`);
  if (canRedraw(stream, env)) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: '{bar} {percentage}% · {value}/{total} runs · eta {eta_formatted}{spend}',
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { spend: spend() });
    return (done) => {
      bar.update(done, { spend: spend() });
      if (done >= total) bar.stop();
    };
  }
  let nextTenth = 1;
  return (done) => {
    while (done * 10 >= nextTenth * total && nextTenth <= 10) {
      stream.write(`${nextTenth * 10}% · ${Math.round((nextTenth * total) / 10)}/${total} runs${spend()}\n`);
      nextTenth += 1;
    }
  };
}
