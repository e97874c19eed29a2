import cliProgress from 'cli-progress';

/**
 * Progress for long sweeps on stderr: a bar on a terminal; plain lines at each tenth
 * when output is a log (CI), so logs stay readable. Quiet for small sweeps.
 */
export function sweepProgress(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): ((done: number, total: number) => void) | undefined {
  if (total < 1000) return undefined;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: '{bar} {percentage}% · {value}/{total} runs · eta {eta_formatted}',
        hideCursor: true,
        clearOnComplete: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return (done) => {
      bar.update(done);
      if (done >= total) bar.stop();
    };
  }
  let nextTenth = 1;
  return (done) => {
    while (done * 10 >= nextTenth * total && nextTenth <= 10) {
      stream.write(`${nextTenth * 10}% · ${Math.round((nextTenth * total) / 10)}/${total} runs\n`);
      nextTenth += 1;
    }
  };
}
