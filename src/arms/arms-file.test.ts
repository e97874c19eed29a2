import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LoopContext } from '../loop/guard.js';
import { loadScenario } from '../scenarios/loader.js';
import { UserInputError } from '../user-input-error.js';
import { loadArmsFile } from './arms-file.js';
import { buildGuards } from './arms.js';

function armsFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'arms-file-')), 'arms.yaml');
  writeFileSync(path, text);
  return path;
}

const named = (name: string) => armsFile(`arms:\n  - name: ${JSON.stringify(name)}\n    guards: [{ guard: stuck }]\n`);

async function problemOf(path: string): Promise<{ source: string; field: string; expected: string }> {
  try {
    await loadArmsFile(path);
  } catch (error) {
    if (error instanceof UserInputError) return { ...error.problems[0]! };
    throw error;
  }
  throw new Error('loaded');
}

describe('loadArmsFile', () => {
  it('loads custom arms by name, with defaults filled in', async () => {
    const arms = await loadArmsFile(
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
    async (name) => {
      const path = named(name);
      expect(await problemOf(path)).toEqual({
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
  ])('refuses %s, %s', async (name, what) => {
    const path = named(name);
    expect(await problemOf(path)).toEqual({
      source: path,
      field: 'arms.0.name',
      expected: `a name of your own; '${name}' is reserved: ${what}`,
    });
  });

  it('refuses an arm named twice', async () => {
    const path = armsFile('arms:\n  - { name: a, guards: [] }\n  - { name: a, guards: [] }\n');
    expect(await problemOf(path)).toEqual({
      source: path,
      field: 'arms.1.name',
      expected: "a name used once; 'a' is used twice",
    });
  });
});

describe('loadArmsFile with a user guard module', () => {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'user-guard-'));
  // The user's project: spiralbench's own dependencies (zod) resolve from here.
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'guards'));
  const defineGuardPath = JSON.stringify(join(repo, 'src/loop/define-guard.ts'));
  writeFileSync(
    join(dir, 'guards/search-cap.ts'),
    `import { z } from 'zod';
import { defineGuard } from ${defineGuardPath};
const settings = z.strictObject({ maxSearches: z.number().int().min(0).default(1) });
export const searchCap = defineGuard({
  name: 'search-cap',
  settings,
  build: ({ maxSearches }) => {
    let searches = 0;
    return {
      name: 'search-cap',
      beforeToolCall: (call) =>
        call.name === 'search_users' && ++searches > maxSearches
          ? { kind: 'answer', content: 'Not run: searching is capped.', isError: true }
          : undefined,
    };
  },
});
export const budgetLookalike = defineGuard({ name: 'budget', settings: z.strictObject({}), build: () => ({ name: 'budget' }) });
`,
  );
  writeFileSync(join(dir, 'guards/nothing.ts'), 'export const answer = 42;\n');
  const write = (name: string, guards: string) => {
    const path = join(dir, name);
    writeFileSync(path, `arms:\n  - name: capped\n    guards:\n${guards}`);
    return path;
  };
  const problemsOf = async (path: string) => {
    try {
      await loadArmsFile(path);
    } catch (error) {
      if (error instanceof UserInputError) return error.problems.map((problem) => ({ ...problem }));
      throw error;
    }
    throw new Error('loaded');
  };

  it('reads its settings with its own schema, and records its name, module and export', async () => {
    const path = write(
      'ok.yaml',
      '      - { guard: stuck }\n      - { guard: "./guards/search-cap.ts#searchCap", maxSearches: 0 }\n',
    );
    const arm = (await loadArmsFile(path)).get('capped')!;
    expect(arm.guards).toEqual([
      { guard: 'stuck' },
      {
        guard: 'search-cap',
        module: join(dir, 'guards/search-cap.ts'),
        export: 'searchCap',
        settings: { maxSearches: 0 },
      },
    ]);
    const scenario = loadScenario('fetch-transform-write');
    const [, cap] = buildGuards(arm, scenario, { sweepSeed: 1, scenario: scenario.id, runSeed: 1 });
    expect(cap?.name).toBe('search-cap');
    const call = { type: 'tool_use', id: 't1', name: 'search_users', input: {}, caller: { type: 'direct' } } as const;
    expect(cap?.beforeToolCall?.(call, {} as LoopContext)).toEqual({
      kind: 'answer',
      content: 'Not run: searching is capped.',
      isError: true,
    });
  });

  it('fills in its defaults when named alone', async () => {
    const path = write('alone.yaml', '      - { guard: "./guards/search-cap.ts#searchCap" }\n');
    expect((await loadArmsFile(path)).get('capped')?.guards[0]).toMatchObject({ settings: { maxSearches: 1 } });
  });

  it('names the arms file, the field and the expectation for a bad setting or an unknown one', async () => {
    const path = write(
      'bad.yaml',
      '      - { guard: "./guards/search-cap.ts#searchCap", maxSearches: -1, maxSerches: 2 }\n',
    );
    expect(await problemsOf(path)).toEqual([
      { source: path, field: 'arms.0.guards.0.maxSearches', expected: expect.stringMatching(/>=0/) },
      { source: path, field: 'arms.0.guards.0', expected: expect.stringMatching(/maxSerches/) },
    ]);
  });

  it('names a module that does not exist', async () => {
    const path = write('missing.yaml', '      - { guard: ./guards/absent.ts }\n');
    expect(await problemsOf(path)).toEqual([
      {
        source: path,
        field: 'arms.0.guards.0.guard',
        expected: `a module file that exists; '${join(dir, 'guards/absent.ts')}' does not`,
      },
    ]);
  });

  it('names a module that exports no guard, or not under the name given', async () => {
    const none = write('none.yaml', '      - { guard: ./guards/nothing.ts }\n');
    expect(await problemsOf(none)).toEqual([
      {
        source: none,
        field: 'arms.0.guards.0.guard',
        expected: `a guard made with defineGuard as the default export of '${join(dir, 'guards/nothing.ts')}' (none found)`,
      },
    ]);
    const misnamed = write('misnamed.yaml', '      - { guard: "./guards/search-cap.ts#searchcap" }\n');
    expect(await problemsOf(misnamed)).toEqual([
      {
        source: misnamed,
        field: 'arms.0.guards.0.guard',
        expected: `a guard made with defineGuard exported as 'searchcap' from '${join(dir, 'guards/search-cap.ts')}'`,
      },
    ]);
  });

  it("refuses a user guard that takes a built-in guard's name, and one listed twice", async () => {
    const lookalike = write('lookalike.yaml', '      - { guard: "./guards/search-cap.ts#budgetLookalike" }\n');
    expect(await problemsOf(lookalike)).toEqual([
      {
        source: lookalike,
        field: 'arms.0.guards.0.guard',
        expected: `a guard named other than a built-in one; '${join(dir, 'guards/search-cap.ts')}' defines 'budget'`,
      },
    ]);
    const twice = write(
      'twice.yaml',
      '      - { guard: "./guards/search-cap.ts#searchCap" }\n      - { guard: "../' +
        `${dir.split('/').at(-1)}/guards/search-cap.ts#searchCap" }\n`,
    );
    expect(await problemsOf(twice)).toEqual([
      { source: twice, field: 'arms.0.guards', expected: 'each guard at most once' },
    ]);
  });

  it('names an unknown guard that is neither built in nor a path', async () => {
    const path = write('unknown.yaml', '      - { guard: teleport }\n');
    expect(await problemsOf(path)).toEqual([
      {
        source: path,
        field: 'arms.0.guards.0.guard',
        expected: expect.stringMatching(/^a built-in guard \(rollback, recover, .*\) or the path of a guard module/),
      },
    ]);
  });
});
