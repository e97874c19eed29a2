import { describe, expect, it } from 'vitest';
import { buildProgram } from './main.js';

const argv = (...words: string[]) => ['node', 'spiralbench', ...words];

describe('buildProgram', () => {
  it('loads only the command argv names, under the name it registers', async () => {
    const all = (await buildProgram(argv('--help'))).commands.map((command) => command.name());
    expect(all).toContain('run');
    expect(all.length).toBeGreaterThan(10);
    for (const name of all) {
      const program = await buildProgram(argv('--verbose', name, '--seeds', '3'));
      expect(program.commands.map((command) => command.name())).toEqual([name]);
    }
  });

  it('loads every command for help, a bare call or a word that is not a command', async () => {
    const count = (await buildProgram(argv())).commands.length;
    expect((await buildProgram(argv('rn', '-s', 'x'))).commands).toHaveLength(count);
    expect((await buildProgram(argv('-h'))).commands).toHaveLength(count);
  });

  it('loads no command for the version alone, and every command when the version comes with anything else', async () => {
    const count = (await buildProgram(argv())).commands.length;
    expect((await buildProgram(argv('--version'))).commands).toHaveLength(0);
    expect((await buildProgram(argv('-V', '--verbose'))).commands).toHaveLength(0);
    expect((await buildProgram(argv('--version', 'rn'))).commands).toHaveLength(count);
  });
});
