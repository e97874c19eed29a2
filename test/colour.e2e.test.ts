import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from './cli-helpers.js';

const ESC = '\u001b';
const RUN = ['run', '--scenario', 'lookup-readonly', '--arms', 'none,article', '--seeds', '2'];
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The CLI with stdout and stderr on a terminal (a pseudo-terminal from util-linux `script`). */
function onTerminal(args: readonly string[], env: Record<string, string | undefined>): string {
  const { NO_COLOR: _no, FORCE_COLOR: _force, ...rest } = process.env;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    env: { ...rest, TERM: 'xterm-256color', ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

describe('colour only on a terminal, never with NO_COLOR', () => {
  it('bench writes no escape codes into a file or a pipe', () => {
    const result = cli(
      [
        'bench',
        '-a',
        'none',
        '-n',
        '1',
        '--time',
        '5',
        '--no-sdk',
        '--no-checkpoints',
        '--no-stream',
        '--no-tokens',
        '--no-sweep',
      ],
      { TERM: 'xterm-256color' },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('bare loop');
    expect(result.stdout).not.toContain(ESC);
  });

  it('FORCE_COLOR colours a pipe', () => {
    const result = cli([...RUN, '--out', tempDir()], { FORCE_COLOR: '1' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${ESC}[`);
  });

  it.skipIf(!hasScript)('a terminal gets colour; with NO_COLOR or TERM=dumb it gets none', () => {
    expect(onTerminal([...RUN, '--out', tempDir()], {})).toContain(`${ESC}[`);
    expect(onTerminal([...RUN, '--out', tempDir()], { NO_COLOR: '1' })).not.toContain(ESC);
    expect(onTerminal([...RUN, '--out', tempDir()], { TERM: 'dumb' })).not.toContain(ESC);
  });
});
