import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { ARM_PRESETS, resolveArms } from './arms.js';
import { loadArmsFile } from './arms-file.js';

const guardsOf = (name: string) => ARM_PRESETS.get(name)?.guards.map((setting) => setting.guard);

describe('arm presets', () => {
  it('article is the four core guards in consultation order; all has every guard', () => {
    expect(guardsOf('article')).toEqual(['stuck', 'budget', 'repeat', 'classify']);
    expect(guardsOf('all')).toEqual([
      'recover',
      'compact',
      'output',
      'fixup',
      'stuck',
      'budget',
      'repeat',
      'classify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
    ]);
    expect(ARM_PRESETS.get('repair')?.guards).toEqual([{ guard: 'repair', repairTruncated: false }]);
    expect(guardsOf('recover')).toEqual(['recover']);
    expect(guardsOf('none')).toEqual([]);
    expect(guardsOf('repeat')).toEqual(['repeat']);
  });

  it('ablation expands to none, each alone, all-but-one and all', () => {
    expect(resolveArms(['ablation']).map((arm) => arm.name)).toEqual([
      'none',
      'recover',
      'compact',
      'output',
      'fixup',
      'stuck',
      'budget',
      'repeat',
      'classify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
      'all-no-recover',
      'all-no-compact',
      'all-no-output',
      'all-no-fixup',
      'all-no-stuck',
      'all-no-budget',
      'all-no-repeat',
      'all-no-classify',
      'all-no-loops',
      'all-no-iterations',
      'all-no-time',
      'all-no-concurrency',
      'all-no-repair',
      'all-no-journal',
      'all',
    ]);
    expect(
      resolveArms(['ablation'])
        .find((arm) => arm.name === 'all-no-repeat')
        ?.guards.map((s) => s.guard),
    ).toEqual([
      'recover',
      'compact',
      'output',
      'fixup',
      'stuck',
      'budget',
      'classify',
      'loops',
      'iterations',
      'time',
      'concurrency',
      'repair',
      'journal',
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
    expect(() => resolveArms(['none', 'nope', 'zzz'])).toThrow(/unknown: nope, zzz/);
  });
});

describe('arms file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arms-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('loads custom arms with defaults filled in, usable by name', () => {
    const path = write(
      'ok.yaml',
      'arms:\n  - name: tight\n    guards:\n      - { guard: budget, maxToolCalls: 8 }\n      - { guard: classify }\n',
    );
    const custom = loadArmsFile(path);
    expect(resolveArms(['none', 'tight'], '--arms', custom)[1]).toEqual({
      name: 'tight',
      guards: [
        { guard: 'budget', maxToolCalls: 8, counts: 'requested' },
        { guard: 'classify', maxRetries: 3, backoffMs: [1000, 2000, 4000] },
      ],
    });
  });

  it('reads the repair guard, cut-off JSON left unrepaired unless asked', () => {
    const path = write(
      'repair.yaml',
      'arms:\n  - name: lenient\n    guards:\n      - { guard: repair }\n  - name: greedy\n    guards:\n      - { guard: repair, repairTruncated: true }\n',
    );
    const arms = loadArmsFile(path);
    expect(arms.get('lenient')?.guards).toEqual([{ guard: 'repair', repairTruncated: false }]);
    expect(arms.get('greedy')?.guards).toEqual([{ guard: 'repair', repairTruncated: true }]);
  });

  it("fills in the recovery guard's defaults and accepts no fallback model", () => {
    const path = write(
      'recover.yaml',
      'arms:\n  - name: patient\n    guards:\n      - { guard: recover, maxRetries: 5, fallbackModel: null }\n',
    );
    expect(loadArmsFile(path).get('patient')?.guards).toEqual([
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

  it("fills in compaction's defaults, so pinning and the summary budget can be set alone", () => {
    const path = write(
      'compact.yaml',
      'arms:\n  - name: tight-summary\n    guards:\n      - { guard: compact, pin: false, summaryMaxTokens: 256 }\n',
    );
    expect(loadArmsFile(path).get('tight-summary')?.guards).toEqual([
      { ...ARM_PRESETS.get('compact')!.guards[0], pin: false, summaryMaxTokens: 256 },
    ]);
  });

  it('reports every problem with the file and field', () => {
    const path = write(
      'bad.yaml',
      'arms:\n  - name: Bad Name\n    guards:\n      - { guard: budget, maxToolCalls: 0 }\n      - { guard: teleport }\n',
    );
    try {
      loadArmsFile(path);
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

  it('refuses a name a preset already has', () => {
    const path = write('taken.yaml', 'arms:\n  - name: article\n    guards: []\n');
    expect(() => loadArmsFile(path)).toThrow(/arms\.0\.name: a name of your own; 'article' is reserved: a preset arm/);
  });

  it('refuses fractional backoffs: virtual time stays whole milliseconds', () => {
    const path = write(
      'fraction.yaml',
      'arms:\n  - name: odd\n    guards:\n      - { guard: classify, backoffMs: [500.5] }\n',
    );
    expect(() => loadArmsFile(path)).toThrow(/arms\.0\.guards\.0\.backoffMs\.0: Invalid input: expected int/);
  });

  it('refuses a guard listed twice', () => {
    const path = write(
      'twice.yaml',
      'arms:\n  - name: odd\n    guards:\n      - { guard: classify }\n      - { guard: classify }\n',
    );
    expect(() => loadArmsFile(path)).toThrow(/arms\.0\.guards: each guard at most once/);
  });
});
