/** Everything `spiralbench replay` needs to run one run of a sweep again. */
export interface ReplayTarget {
  /** A bundled scenario's id, or the scenario file's path as the user gave it to run. */
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweepSeed: number;
  /** The arms file that defines the arm, as the user gave it; absent for built-in arms. */
  readonly armsFile?: string;
  /** The agent module of an `agent:` arm not from an arms file, as `--agent` takes it. */
  readonly agent?: string;
  /** The simulated model was reached through the SDK (`--via sdk`). @default false */
  readonly viaSdk?: boolean;
  /** Every model call was streamed. @default false */
  readonly stream?: boolean;
  /** Requests went unmarked for the prompt cache. @default true */
  readonly promptCache?: boolean;
  /** The persona ensemble as the sweep named it, and the member that played the run. */
  readonly ensemble?: string;
  readonly member?: number;
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but safe characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that reproduces a run byte for byte, ready to paste into a shell in the
 * folder the sweep was started from.
 *
 * @example
 * replayCommand({ scenario: 'fetch-transform-write', arm: 'article', seed: 12, sweepSeed: 0 })
 * // 'spiralbench replay --scenario fetch-transform-write --arm article --seed 12'
 */
export function replayCommand(target: ReplayTarget): string {
  const words = [
    'spiralbench',
    'replay',
    '--scenario',
    target.scenario,
    '--arm',
    target.arm,
    '--seed',
    `${target.seed}`,
  ];
  if (target.sweepSeed !== 0) words.push('--sweep-seed', `${target.sweepSeed}`);
  if (target.armsFile !== undefined) words.push('--arms-file', target.armsFile);
  if (target.agent !== undefined) words.push('--agent', target.agent);
  if (target.ensemble !== undefined) words.push('--ensemble', target.ensemble);
  if (target.member !== undefined) words.push('--member', `${target.member}`);
  if (target.viaSdk === true) words.push('--via', 'sdk');
  if (target.stream === true) words.push('--stream');
  if (target.promptCache === false) words.push('--no-prompt-cache');
  return words.map(shellWord).join(' ');
}

/**
 * The words of a command `replayCommand` wrote, as a POSIX shell reads them back (plain
 * words and single-quoted ones, which is all `shellWord` writes).
 *
 * @example
 * shellWords("spiralbench replay --scenario 'my task.yaml' --seed 3"); // ['spiralbench', 'replay', '--scenario', 'my task.yaml', '--seed', '3']
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new Error(`an unclosed quote in: ${command}`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '\\' && command[i + 1] === "'") {
      word = `${word ?? ''}'`;
      i += 1;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}
