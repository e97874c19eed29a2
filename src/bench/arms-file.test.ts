import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { loadArmsFile } from './arms-file.js';

function armsFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'arms-file-')), 'arms.yaml');
  writeFileSync(path, text);
  return path;
}

const named = (name: string) => armsFile(`arms:\n  - name: ${JSON.stringify(name)}\n    guards: [{ guard: stuck }]\n`);

function problemOf(path: string): { source: string; field: string; expected: string } {
  try {
    loadArmsFile(path);
  } catch (error) {
    if (error instanceof UserInputError) return { ...error.problems[0]! };
    throw error;
  }
  throw new Error('loaded');
}

describe('loadArmsFile', () => {
  it('loads custom arms by name, with defaults filled in', () => {
    const arms = loadArmsFile(
      armsFile('arms:\n  - name: tight\n    guards: [{ guard: budget, maxToolCalls: 8 }, { guard: repeat }]\n'),
    );
    expect([...arms.values()]).toEqual([
      {
        name: 'tight',
        guards: [
          { guard: 'budget', maxToolCalls: 8, counts: 'requested' },
          { guard: 'repeat', window: 1 },
        ],
      },
    ]);
  });

  it.each(['peer:vercel-ai', 'peer:some-future-framework'])(
    'refuses %s: peer: names the arms of peer frameworks, which would silently win',
    (name) => {
      const path = named(name);
      expect(problemOf(path)).toEqual({
        source: path,
        field: 'arms.0.name',
        expected: `a name of your own; '${name}' is reserved: peer: starts the arms of peer frameworks`,
      });
    },
  );

  it.each([
    ['none', 'a preset arm'],
    ['ablation', 'a group of arms'],
    ['all-no-budget', 'an arm of the ablation group'],
  ])('refuses %s, %s', (name, what) => {
    const path = named(name);
    expect(problemOf(path)).toEqual({
      source: path,
      field: 'arms.0.name',
      expected: `a name of your own; '${name}' is reserved: ${what}`,
    });
  });

  it('refuses an arm named twice', () => {
    const path = armsFile('arms:\n  - { name: a, guards: [] }\n  - { name: a, guards: [] }\n');
    expect(problemOf(path)).toEqual({
      source: path,
      field: 'arms.1.name',
      expected: "a name used once; 'a' is used twice",
    });
  });
});
