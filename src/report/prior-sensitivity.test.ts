import { describe, expect, it } from 'vitest';
import type { Robustness, RobustnessLabel } from '../stats/robustness.js';
import { renderPriorSensitivity } from './prior-sensitivity-text.js';
import { conclusionOf, priorSensitivity, storedSensitivity } from './prior-sensitivity.js';
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
  const result = priorSensitivity(main, { low, high }, PARAMETERS);
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
    const missing = priorSensitivity(main, { low, high: effects() }, PARAMETERS);
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
    const none = renderPriorSensitivity(priorSensitivity(main, { low: main, high: main }, PARAMETERS));
    expect(none).toMatch(/^Sensitivity to priors: no cell's success label or sign changes/);
  });

  it('is stored in the shape summary.json reads back', () => {
    const stored = storedSensitivity(result);
    expect(sensitivitySchema.parse(stored)).toEqual(stored);
    expect(stored.cells[0]).toMatchObject({ scenario: 'fetch-transform-write', arm: 'article', changes_at: ['low'] });
  });
});
