/** The environment variables a terminal convention reads. */
export type TerminalEnv = Readonly<Record<string, string | undefined>>;

/**
 * Whether output to `stream` gets ANSI colours, by the usual conventions: FORCE_COLOR
 * set (other than 0 or false) wins, as in Node itself; then NO_COLOR set to anything
 * non-empty (no-color.org) or TERM=dumb turns colour off; otherwise only a terminal
 * gets it, so a file or a pipe holds plain text.
 */
export function colourWanted(stream: { readonly isTTY?: boolean }, env: TerminalEnv): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

/** Whether `stream` can take cursor movements (a redrawn progress bar): a terminal that is not TERM=dumb. */
export function canRedraw(stream: { readonly isTTY?: boolean }, env: TerminalEnv): boolean {
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

let stdoutDecision: boolean | undefined;

/** Whether this process colours stdout: decided once, so every table of one command agrees. */
export function colourStdout(): boolean {
  stdoutDecision ??= colourWanted(process.stdout, process.env);
  return stdoutDecision;
}
