import { describe, expect, it } from 'vitest';
import { assessRobustness, type Robustness, type RobustnessLabel } from '../stats/robustness.js';
import { renderPriorSensitivity } from './prior-sensitivity-text.js';
import { type ComparedConclusions, conclusionOf, priorSensitivity, storedSensitivity } from './prior-sensitivity.js';
import type { ScenarioEffect } from './recommendation.js';
import { sensitivitySchema } from '../results/summary-schema.js';

function robustness(label: RobustnessLabel, pooled: number, significant: boolean): Robustness {
  const spread = significant ? Math.abs(pooled) / 2 : Math.abs(pooled) + 0.05;
  return {
    label,
    borderline: false,
    flippedBy: [],
    members: 40,
    pooled,
    low: pooled - spread,
    high: pooled + spread,
    significant,
    predictionLow: null,
    predictionHigh: null,
    tau: 0,
    heterogeneityP: 1,
    rawMin: pooled,
    rawMax: pooled,
    shrunkenMin: pooled,
    shrunkenMax: pooled,
  };
}

function effect(scenario: string, arm: string, success: Robustness): ScenarioEffect {
  return {
    scenario,
    arm,
    baseline: 'none',
    success,
    toolCalls: success,
    inputTokens: success,
    p95ToolCalls: { baseline: 0, arm: 0 },
    p95InputTokens: { baseline: 0, arm: 0 },
    harmful: { baseline: 0, arm: 0 },
  };
}

const effects = (...list: ScenarioEffect[]) => new Map(list.map((e) => [`${e.scenario}\u0000${e.arm}`, e]));

/** A sweep's conclusions: its cells' effects, and each arm's change in harmful rate (none by default). */
const sweep = (
  cellEffects: ReadonlyMap<string, ScenarioEffect>,
  harmful: ReadonlyArray<readonly [string, Robustness]> = [],
): ComparedConclusions => ({ baseline: 'none', effects: cellEffects, harmful: new Map(harmful) });

const PARAMETERS = [
  { parameter: 'help.probability', low: 0, high: 1 },
  { parameter: 'help.after_failures', low: 1, high: 8 },
];

describe('priorSensitivity: which conclusions the priors decide', () => {
  const main = effects(
    effect('fetch-transform-write', 'article', robustness('robust', 0.185, true)),
    effect('fetch-transform-write', 'stuck', robustness('depends-on-model', 0.018, false)),
    effect('search-thrash', 'classify', robustness('robust', 0.12, true)),
  );
  const low = effects(
    // The sign flips: a robust gain becomes a robust loss.
    effect('fetch-transform-write', 'article', robustness('robust', -0.04, true)),
    effect('fetch-transform-write', 'stuck', robustness('depends-on-model', 0.01, false)),
    effect('search-thrash', 'classify', robustness('robust', 0.2, true)),
  );
  const high = effects(
    effect('fetch-transform-write', 'article', robustness('robust', 0.2, true)),
    // Only the label changes: depends-on-model becomes robust.
    effect('fetch-transform-write', 'stuck', robustness('robust', 0.03, true)),
    effect('search-thrash', 'classify', robustness('robust', 0.09, true)),
  );
  const result = priorSensitivity(sweep(main), { low: sweep(low), high: sweep(high) }, PARAMETERS);
  const cell = (arm: string) => result.cells.find((c) => c.arm === arm)!;

  it('flags a cell whose sign flips at an edge, naming every moved parameter', () => {
    expect(cell('article').changesAt).toEqual(['low']);
    expect(cell('article').dependsOn).toEqual(['help.probability', 'help.after_failures']);
    expect(cell('article').low).toEqual({ label: 'robust', sign: '-', pooled: -0.04 });
  });

  it('flags a cell whose label changes at an edge though its pooled sign does not', () => {
    expect(cell('stuck').changesAt).toEqual(['high']);
    expect(cell('stuck').dependsOn).toHaveLength(2);
  });

  it('does not flag a cell whose label and sign hold at both edges, however far the effect moves', () => {
    expect(cell('classify').changesAt).toEqual([]);
    expect(cell('classify').dependsOn).toEqual([]);
  });

  it('flags a cell with no paired runs at an edge: its conclusion is gone there', () => {
    const missing = priorSensitivity(sweep(main), { low: sweep(low), high: sweep(effects()) }, PARAMETERS);
    expect(missing.cells.find((c) => c.arm === 'classify')?.changesAt).toEqual(['high']);
  });

  it('gives a sign only to a significant pooled effect', () => {
    expect(conclusionOf(robustness('no-clear-difference', 0.02, false)).sign).toBe('0');
    expect(conclusionOf(robustness('robust', -0.1, true)).sign).toBe('-');
  });

  it('prints the changed cells with the assumptions they depend on, or says none change', () => {
    const text = renderPriorSensitivity(result);
    expect(text).toMatch(/^Sensitivity to priors: 2 of 3 cells change/);
    expect(text).toContain('depend on untested assumptions (help.probability, help.after_failures)');
    expect(text).toContain('fetch-transform-write · article');
    expect(text).not.toContain('search-thrash · classify');
    const none = renderPriorSensitivity(
      priorSensitivity(sweep(main), { low: sweep(main), high: sweep(main) }, PARAMETERS),
    );
    expect(none).toMatch(/^Sensitivity to priors: no cell's success label or sign changes/);
  });

  it('prints the success part as before, then one line on harmful rates when the sweep compared none', () => {
    expect(renderPriorSensitivity(result)).toBe(
      [
        'Sensitivity to priors: 2 of 3 cells change success label or sign with the 2 prior-only parameters moved together to the low, then the high edge of their ranges;',
        'they depend on untested assumptions (help.probability, help.after_failures):',
        '  fetch-transform-write · article  +18.5 pts robust · low: -4.0 pts robust · high: +20.0 pts robust',
        '  fetch-transform-write · stuck    +1.8 pts depends-on-model · low: +1.0 pts depends-on-model · high: +3.0 pts robust',
        "Harmful rate against none, as the answer table pools it: no arm's label or sign changes at either edge (0 arms).",
      ].join('\n'),
    );
  });

  it('is stored in the shape summary.json reads back', () => {
    const stored = storedSensitivity(result);
    expect(sensitivitySchema.parse(stored)).toEqual(stored);
    expect(stored.cells[0]).toMatchObject({ scenario: 'fetch-transform-write', arm: 'article', changes_at: ['low'] });
  });
});

/** What `assessRobustness` says of an arm with no harmful run, like the baseline: 10 members, 2 seeds each. */
function noHarm(): Robustness {
  const members = Array.from({ length: 10 }, (_, member) => ({ member, a: [0, 0], b: [0, 0] }));
  return assessRobustness([{ paired: true, members }])!;
}

describe('priorSensitivity: which harmful-rate conclusions the priors decide', () => {
  const cellsOnce = effects(effect('inbox-injection', 'isolate', robustness('robust', 0.1, true)));
  const main = sweep(cellsOnce, [
    ['contracts', robustness('robust', -0.036, true)],
    ['isolate', robustness('depends-on-model', -0.019, false)],
    ['trust', noHarm()],
    ['filter', noHarm()],
  ]);
  const low = sweep(cellsOnce, [
    ['contracts', robustness('robust', -0.05, true)],
    // Label and sign change: depends-on-model becomes a robust cut.
    ['isolate', robustness('robust', -0.05, true)],
    ['trust', noHarm()],
    ['filter', noHarm()],
  ]);
  const high = sweep(cellsOnce, [
    ['contracts', robustness('robust', -0.02, true)],
    ['isolate', robustness('depends-on-model', -0.01, false)],
    ['trust', noHarm()],
    // Harm appears where there was none: the label changes, the pooled interval still includes 0.
    ['filter', robustness('depends-on-model', 0.004, false)],
  ]);
  const result = priorSensitivity(main, { low, high }, PARAMETERS);
  const arm = (name: string) => result.harmful.arms.find((a) => a.arm === name)!;

  it('compares every arm against the baseline, in the order of the main sweep', () => {
    expect(result.harmful.baseline).toBe('none');
    expect(result.harmful.arms.map((a) => a.arm)).toEqual(['contracts', 'isolate', 'trust', 'filter']);
  });

  it('flags an arm whose harmful-rate label changes at one edge only, naming every moved parameter', () => {
    expect(arm('isolate')).toEqual({
      arm: 'isolate',
      main: { label: 'depends-on-model', sign: '0', pooled: -0.019 },
      low: { label: 'robust', sign: '-', pooled: -0.05 },
      high: { label: 'depends-on-model', sign: '0', pooled: -0.01 },
      changesAt: ['low'],
      dependsOn: ['help.probability', 'help.after_failures'],
    });
  });

  it('does not flag an arm whose harmful-rate label and sign hold at both edges', () => {
    expect(arm('contracts').changesAt).toEqual([]);
    expect(arm('contracts').dependsOn).toEqual([]);
  });

  it('reads an arm with no harmful run at all as no clear difference of ±0.0 pts, held at both edges', () => {
    expect(arm('trust')).toEqual({
      arm: 'trust',
      main: { label: 'no-clear-difference', sign: '0', pooled: 0 },
      low: { label: 'no-clear-difference', sign: '0', pooled: 0 },
      high: { label: 'no-clear-difference', sign: '0', pooled: 0 },
      changesAt: [],
      dependsOn: [],
    });
    expect(arm('filter').changesAt).toEqual(['high']);
  });

  it('flags an arm with no paired runs at an edge: its conclusion is gone there', () => {
    const gone = priorSensitivity(main, { low, high: sweep(cellsOnce) }, PARAMETERS);
    expect(gone.harmful.arms.map((a) => a.changesAt)).toEqual([['high'], ['low', 'high'], ['high'], ['high']]);
    expect(gone.harmful.arms[0]?.high).toBeNull();
  });

  it('prints the arms whose harmful-rate label or sign changes after the success part', () => {
    const text = renderPriorSensitivity(result);
    expect(text).toBe(
      [
        "Sensitivity to priors: no cell's success label or sign changes with the 2 prior-only parameters moved together to the low, then the high edge of their ranges (1 cell; help.probability, help.after_failures).",
        'Harmful rate against none, as the answer table pools it: 2 of 4 arms change label or sign at an edge;',
        'they depend on the same untested assumptions:',
        '  isolate  -1.9 pts depends-on-model · low: -5.0 pts robust · high: -1.0 pts depends-on-model',
        '  filter   ±0.0 pts no-clear-difference · low: ±0.0 pts no-clear-difference · high: +0.4 pts depends-on-model',
      ].join('\n'),
    );
  });

  it('says in one line when no arm changes, and gives a missing edge as no paired runs', () => {
    const steady = priorSensitivity(main, { low: main, high: main }, PARAMETERS);
    expect(renderPriorSensitivity(steady).split('\n')[1]).toBe(
      "Harmful rate against none, as the answer table pools it: no arm's label or sign changes at either edge (4 arms).",
    );
    const oneArm = sweep(cellsOnce, [['trust', noHarm()]]);
    const gone = priorSensitivity(oneArm, { low: oneArm, high: sweep(cellsOnce) }, PARAMETERS);
    expect(renderPriorSensitivity(gone).split('\n').slice(1)).toEqual([
      'Harmful rate against none, as the answer table pools it: 1 of 1 arm changes label or sign at an edge;',
      'they depend on the same untested assumptions:',
      '  trust  ±0.0 pts no-clear-difference · low: ±0.0 pts no-clear-difference · high: no paired runs',
    ]);
  });

  it('is stored in summary.json beside the cells, and a summary written before it still reads', () => {
    const stored = storedSensitivity(result);
    expect(sensitivitySchema.parse(stored)).toEqual(stored);
    expect(stored.harmful?.baseline).toBe('none');
    expect(stored.harmful?.arms[1]).toEqual({
      arm: 'isolate',
      main: { label: 'depends-on-model', sign: '0', pooled: -0.019 },
      low: { label: 'robust', sign: '-', pooled: -0.05 },
      high: { label: 'depends-on-model', sign: '0', pooled: -0.01 },
      changes_at: ['low'],
      depends_on: ['help.probability', 'help.after_failures'],
    });
    const { harmful: _, ...older } = stored;
    const read = sensitivitySchema.parse(older);
    expect(read).not.toHaveProperty('harmful');
    expect(read.cells).toEqual(stored.cells);
  });
});
