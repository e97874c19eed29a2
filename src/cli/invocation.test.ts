import { describe, expect, it } from 'vitest';
import { asTyped, cliCommand } from './invocation.js';

describe('cliCommand: the command a printed line starts with', () => {
  it('is npx spiralbench when the CLI runs from a project install', () => {
    expect(cliCommand('/home/ada/app/node_modules/.bin/spiralbench')).toBe('npx spiralbench');
    expect(cliCommand('/home/ada/app/node_modules/spiralbench/bin/spiralbench.js')).toBe('npx spiralbench');
    expect(cliCommand('/home/ada/.npm/_npx/1a2b/node_modules/.bin/spiralbench')).toBe('npx spiralbench');
  });

  it('is spiralbench for a global install or a clone', () => {
    expect(cliCommand('/usr/local/bin/spiralbench')).toBe('spiralbench');
    expect(cliCommand('/home/ada/spiralbench/bin/spiralbench.js')).toBe('spiralbench');
  });

  it('rewrites only a command that starts with spiralbench', () => {
    const local = '/app/node_modules/.bin/spiralbench';
    expect(asTyped('spiralbench replay --seed 3', local)).toBe('npx spiralbench replay --seed 3');
    expect(asTyped('see spiralbench replay', local)).toBe('see spiralbench replay');
  });
});
