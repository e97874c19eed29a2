import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import type { LoopContext } from '../loop/guard.js';
import { loadScenario } from '../scenarios/loader.js';
import { ARM_PRESETS, BUILT_IN_GUARDS, buildGuards, DEFAULT_GUARDS, resolveArms } from './arms.js';
import { loadArmsFile } from './arms-file.js';

const guardsOf = (name: string) => ARM_PRESETS.get(name)?.guards.map((setting) => setting.guard);

describe('arm presets', () => {
  it('article is the four core guards in consultation order; all has every guard', () => {
    expect(guardsOf('article')).toEqual(['stuck', 'budget', 'repeat', 'classify']);
    expect(guardsOf('all')).toEqual([
      'rollback',
      'recover',
      'compact',
      'output',
      'fixup',
      'filter',
      'trust',
      'contracts',
      'stuck',
      'budget',
      'repeat',
      'classify',
      'verify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
      'detect',
      'isolate',
    ]);
    expect(ARM_PRESETS.get('repair')?.guards).toEqual([{ guard: 'repair', repairTruncated: false }]);
    expect(guardsOf('recover')).toEqual(['recover']);
    expect(guardsOf('none')).toEqual([]);
    expect(guardsOf('repeat')).toEqual(['repeat']);
  });

  it('ablation expands to none, each alone, all-but-one and all', () => {
    expect(resolveArms(['ablation']).map((arm) => arm.name)).toEqual([
      'none',
      'rollback',
      'recover',
      'compact',
      'output',
      'fixup',
      'filter',
      'trust',
      'contracts',
      'stuck',
      'budget',
      'repeat',
      'classify',
      'verify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
      'detect',
      'isolate',
      'all-no-rollback',
      'all-no-recover',
      'all-no-compact',
      'all-no-output',
      'all-no-fixup',
      'all-no-filter',
      'all-no-trust',
      'all-no-contracts',
      'all-no-stuck',
      'all-no-budget',
      'all-no-repeat',
      'all-no-classify',
      'all-no-verify',
      'all-no-loops',
      'all-no-iterations',
      'all-no-time',
      'all-no-concurrency',
      'all-no-repair',
      'all-no-journal',
      'all-no-detect',
      'all-no-isolate',
      'all',
    ]);
    expect(
      resolveArms(['ablation'])
        .find((arm) => arm.name === 'all-no-repeat')
        ?.guards.map((s) => s.guard),
    ).toEqual([
      'rollback',
      'recover',
      'compact',
      'output',
      'fixup',
      'filter',
      'trust',
      'contracts',
      'stuck',
      'budget',
      'classify',
      'verify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
      'detect',
      'isolate',
    ]);
  });

  it('offers compaction with and without pinning', () => {
    expect(ARM_PRESETS.get('compact')?.guards).toEqual([
      expect.objectContaining({
        guard: 'compact',
        pin: true,
        threshold: 0.7,
        keepLast: 10,
        deepKeepLast: 4,
        maxRecoveries: 4,
      }),
    ]);
    expect(ARM_PRESETS.get('compact-nopin')?.guards).toEqual([
      expect.objectContaining({ guard: 'compact', pin: false, threshold: 0.7, keepLast: 10 }),
    ]);
  });

  it('keeps the order given and drops duplicates', () => {
    expect(resolveArms(['article', 'none', 'article']).map((arm) => arm.name)).toEqual(['article', 'none']);
  });

  it('names every unknown arm in one error', () => {
    expect(() => resolveArms(['none', 'nope', 'zzz'])).toThrow(/unknown: nope \(did you mean 'none'\?\), zzz$/);
    expect(() => resolveArms(['agent:mine'])).toThrow(
      /unknown: agent:mine \(an agent: arm needs its module: add --agent <path>/,
    );
  });
});

describe('arms file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arms-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('loads custom arms with defaults filled in, usable by name', async () => {
    const path = write(
      'ok.yaml',
      'arms:\n  - name: tight\n    guards:\n      - { guard: budget, maxToolCalls: 8 }\n      - { guard: classify }\n',
    );
    const custom = await loadArmsFile(path);
    expect(resolveArms(['none', 'tight'], '--arms', custom)[1]).toEqual({
      name: 'tight',
      guards: [
        { guard: 'budget', maxToolCalls: 8, counts: 'requested' },
        { guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] },
      ],
    });
  });

  it('reads the repair guard, cut-off JSON left unrepaired unless asked', async () => {
    const path = write(
      'repair.yaml',
      'arms:\n  - name: lenient\n    guards:\n      - { guard: repair }\n  - name: greedy\n    guards:\n      - { guard: repair, repairTruncated: true }\n',
    );
    const arms = await loadArmsFile(path);
    expect(arms.get('lenient')?.guards).toEqual([{ guard: 'repair', repairTruncated: false }]);
    expect(arms.get('greedy')?.guards).toEqual([{ guard: 'repair', repairTruncated: true }]);
  });

  it("fills in the recovery guard's defaults and accepts no fallback model", async () => {
    const path = write(
      'recover.yaml',
      'arms:\n  - name: patient\n    guards:\n      - { guard: recover, maxRetries: 5, fallbackModel: null }\n',
    );
    expect((await loadArmsFile(path)).get('patient')?.guards).toEqual([
      {
        guard: 'recover',
        maxRetries: 5,
        backoffMs: [1000, 2000, 4000],
        jitter: 0.25,
        retryAfterCapMs: 60_000,
        fallbackModel: null,
      },
    ]);
  });

  it("fills in compaction's defaults, so pinning and the summary budget can be set alone", async () => {
    const path = write(
      'compact.yaml',
      'arms:\n  - name: tight-summary\n    guards:\n      - { guard: compact, pin: false, summaryMaxTokens: 256 }\n',
    );
    expect((await loadArmsFile(path)).get('tight-summary')?.guards).toEqual([
      { ...ARM_PRESETS.get('compact')!.guards[0], pin: false, summaryMaxTokens: 256 },
    ]);
  });

  it('reports every problem with the file and field', async () => {
    const path = write(
      'bad.yaml',
      'arms:\n  - name: Bad Name\n    guards:\n      - { guard: budget, maxToolCalls: 0 }\n      - { guard: teleport }\n',
    );
    try {
      await loadArmsFile(path);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UserInputError);
      const fields = (error as UserInputError).problems.map((problem) => `${problem.source}|${problem.field}`);
      expect(fields).toEqual([
        `${path}|arms.0.name`,
        `${path}|arms.0.guards.0.maxToolCalls`,
        `${path}|arms.0.guards.1.guard`,
      ]);
    }
  });

  it('refuses a name a preset already has', async () => {
    const path = write('taken.yaml', 'arms:\n  - name: article\n    guards: []\n');
    await expect(loadArmsFile(path)).rejects.toThrow(
      /arms\.0\.name: a name of your own; 'article' is reserved: a preset arm/,
    );
  });

  it('refuses fractional backoffs: virtual time stays whole milliseconds', async () => {
    const path = write(
      'fraction.yaml',
      'arms:\n  - name: odd\n    guards:\n      - { guard: classify, backoffMs: [500.5] }\n',
    );
    await expect(loadArmsFile(path)).rejects.toThrow(/arms\.0\.guards\.0\.backoffMs\.0: Invalid input: expected int/);
  });

  it('refuses a guard listed twice', async () => {
    const path = write(
      'twice.yaml',
      'arms:\n  - name: odd\n    guards:\n      - { guard: classify }\n      - { guard: classify }\n',
    );
    await expect(loadArmsFile(path)).rejects.toThrow(/arms\.0\.guards: each guard at most once/);
  });
});

describe('built-in guard descriptors', () => {
  it('default to the settings arms have always had, in the same key order (results keep their bytes)', () => {
    expect(JSON.stringify(DEFAULT_GUARDS)).toBe(
      JSON.stringify([
        { guard: 'rollback' },
        {
          guard: 'recover',
          maxRetries: 3,
          backoffMs: [1000, 2000, 4000],
          jitter: 0.25,
          retryAfterCapMs: 60_000,
          fallbackModel: 'claude-haiku-5-5',
        },
        {
          guard: 'compact',
          threshold: 0.7,
          keepLast: 10,
          deepKeepLast: 4,
          pin: true,
          summaryModel: 'claude-haiku-5-5',
          summaryMaxTokens: 512,
          ladderWindow: 20,
          maxRecoveries: 4,
          reactive: true,
          counter: 'estimate',
        },
        { guard: 'output', raisedMaxTokens: 64_000, maxResumes: 3 },
        { guard: 'fixup' },
        { guard: 'filter', allow: null },
        { guard: 'trust' },
        { guard: 'contracts' },
        { guard: 'stuck' },
        { guard: 'budget', maxToolCalls: 'task-class', counts: 'requested' },
        { guard: 'repeat', window: 1 },
        { guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] },
        { guard: 'verify' },
        { guard: 'loops', window: 6, identical: 3, pattern: 4 },
        { guard: 'iterations', initial: 'task-class', extension: 10, cap: 'task-class' },
        { guard: 'time', softMs: 'task-class', hardMs: 'task-class' },
        { guard: 'concurrency' },
        { guard: 'repair', repairTruncated: false },
        { guard: 'journal', digestChars: 500 },
        { guard: 'detect' },
        { guard: 'isolate', open: '<<', close: '>>' },
      ]),
    );
  });

  it('build each guard under its own name, in the order of the arm', () => {
    const scenario = loadScenario('fetch-transform-write');
    const guards = buildGuards(ARM_PRESETS.get('all')!, scenario, { sweepSeed: 1, scenario: scenario.id, runSeed: 1 });
    expect(guards.map((guard) => guard.name)).toEqual(BUILT_IN_GUARDS.map((descriptor) => descriptor.name));
  });

  /** What the guard named `name` of arm `arm` decides before a model call, at this point of a run of `scenarioId`. */
  const decisionOf = (arm: string, scenarioId: string, at: { toolCalls: number; iteration: number; nowMs: number }) => {
    const scenario = loadScenario(scenarioId);
    const [guard] = buildGuards(ARM_PRESETS.get(arm)!, scenario, { sweepSeed: 1, scenario: scenario.id, runSeed: 1 });
    const ctx = {
      clock: new VirtualClock(at.nowMs),
      emit: () => {},
      toolCalls: at.toolCalls,
      toolExecutions: at.toolCalls,
      toolTraits: () => undefined,
      iteration: at.iteration,
      messages: [],
    } satisfies LoopContext;
    return guard!.beforeModelCall?.(ctx)?.kind;
  };

  it.each([
    ['lookup-readonly', 5],
    ['fetch-transform-write', 15],
    ['long-research', 40],
  ])("resolve a 'task-class' tool budget to the class's: %s allows %i calls", (scenario, limit) => {
    expect(decisionOf('budget', scenario, { toolCalls: limit - 1, iteration: 1, nowMs: 0 })).toBeUndefined();
    expect(decisionOf('budget', scenario, { toolCalls: limit, iteration: 1, nowMs: 0 })).toBe('final_turn');
  });

  it.each([
    ['fetch-transform-write', 10],
    ['long-research', 30],
  ])("resolve 'task-class' iterations to the class's: %s starts with %i model calls", (scenario, initial) => {
    expect(decisionOf('iterations', scenario, { toolCalls: 0, iteration: initial - 1, nowMs: 0 })).toBeUndefined();
    expect(decisionOf('iterations', scenario, { toolCalls: 0, iteration: initial, nowMs: 0 })).toBe('stop');
  });

  it.each([
    ['lookup-readonly', 120_000],
    ['long-research', 1_800_000],
  ])("resolve 'task-class' time limits to the class's: %s stops hard at %i ms", (scenario, hardMs) => {
    expect(decisionOf('time', scenario, { toolCalls: 0, iteration: 1, nowMs: hardMs - 1 })).toBe('final_turn');
    expect(decisionOf('time', scenario, { toolCalls: 0, iteration: 1, nowMs: hardMs })).toBe('stop');
  });
});
