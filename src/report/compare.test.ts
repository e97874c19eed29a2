import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import {
  compare,
  DEFAULT_SUCCESS_TOLERANCE,
  DEFAULT_THRESHOLDS,
  regressions,
  resolveCompareOptions,
} from './compare.js';
import type { SweepCell } from './read-sweep.js';
import { runColumns } from './sweep-cell.test-helpers.js';

const SCENARIO = 'fetch-transform-write';
const range = (n: number, f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));

/** A cell of n runs: `successes` of them succeed, the metrics follow the given shapes. */
function cell(
  arm: string,
  successes: number,
  n = 100,
  shape: {
    calls?: (i: number) => number;
    tokens?: (i: number) => number;
    escalated?: number;
    scenario?: string;
    impossible?: boolean;
  } = {},
): SweepCell {
  return {
    scenario: shape.scenario ?? SCENARIO,
    arm,
    impossible: shape.impossible ?? false,
    trials: n,
    successes,
    escalated: shape.escalated ?? 0,
    toolCalls: range(n, shape.calls ?? ((i) => 5 + (i % 20))),
    inputTokens: range(n, shape.tokens ?? ((i) => 10_000 + ((i * 37) % 100) * 100)),
    outputTokens: range(n, () => 500),
    ...runColumns(n, { successes, escalated: shape.escalated ?? 0, impossible: shape.impossible ?? false }),
  };
}

const options = resolveCompareOptions({ resamples: 500 });

describe('compare', () => {
  it('finds nothing between identical sweeps', () => {
    const { rows } = compare([cell('none', 64)], [cell('none', 64)], options);
    const [row] = rows;
    // No finding; but 100 seeds a side leave ±13 points open, so the word is inconclusive.
    expect(row?.verdict).toBe('inconclusive');
    expect(row?.regression).toBe(false);
    expect(row?.findings).toEqual([]);
    expect(row?.success).toMatchObject({ rateA: 0.64, rateB: 0.64, difference: 0, p: 1, significant: false });
    for (const change of [row!.toolCalls.median, row!.toolCalls.p95, row!.inputTokens.median, row!.inputTokens.p95]) {
      expect(change.difference).toBe(0);
      expect(change.low).toBeLessThanOrEqual(0);
      expect(change.high).toBeGreaterThanOrEqual(0);
      expect(change.significant).toBe(false);
    }
  });

  it('flags a significant success drop beyond the threshold, with Newcombe interval and Fisher p', () => {
    const [row] = compare([cell('none', 90)], [cell('none', 60)], options).rows;
    // Wilson 90/100 [0.8256, 0.9448], 60/100 [0.5020, 0.6906]:
    // low = -0.3 - √(0.098² + 0.0448²) = -0.4078, high = -0.3 + √(0.0906² + 0.0744²) = -0.1828
    // Fisher [[90,10],[60,40]]: SciPy 1.2433405573877402e-06
    expect(row?.success).toEqual({
      successesA: 90,
      trialsA: 100,
      successesB: 60,
      trialsB: 100,
      rateA: 0.9,
      rateB: 0.6,
      difference: -0.3,
      low: -0.4078,
      high: -0.1828,
      p: 1.243e-6,
      significant: true,
      basis: 'fisher',
    });
    expect(row?.findings).toEqual([{ metric: 'success', direction: 'worse', gated: true }]);
    expect(row?.verdict).toBe('regressed');
    expect(row?.regression).toBe(true);
    // Without an ensemble every run is member 0: one model, robustness not assessed.
    expect(row?.robustness.success).toMatchObject({ label: 'one-model', members: 1, pooled: -0.3 });
  });

  it('lets a drop pass when it is not significant, or significant but within the threshold', () => {
    // 45/50 → 43/50: Fisher p = 0.7596 (SciPy), Newcombe [-0.1744, 0.0937]
    const [small] = compare([cell('none', 45, 50)], [cell('none', 43, 50)], options).rows;
    expect(small?.success).toMatchObject({ difference: -0.04, low: -0.1744, high: 0.0937, significant: false });
    // Not a regression; but 50 seeds cannot tell it from a 17-point drop: not "unchanged" either.
    expect(small?.verdict).toBe('inconclusive');
    expect(small?.regression).toBe(false);
    const lenient = resolveCompareOptions({ resamples: 500, thresholds: { successDrop: 0.35 } });
    const [within] = compare([cell('none', 90)], [cell('none', 60)], lenient).rows;
    expect(within?.success.significant).toBe(true);
    expect(within?.verdict).toBe('unchanged');
  });

  it('calls a drop the seeds cannot rule out inconclusive, and unchanged only when the interval is inside the tolerance', () => {
    // -12 points at 100 seeds: Fisher p > 0.05, so not a regression, and the interval reaches far below -5 points.
    const drop = compare([cell('none', 64)], [cell('none', 52)], options);
    const [row] = drop.rows;
    expect(row?.success.significant).toBe(false);
    expect(row?.success.low).toBeLessThan(-0.2);
    expect(row?.verdict).toBe('inconclusive');
    expect(row?.regression).toBe(false);
    expect(drop.verdict).toBe('inconclusive');
    expect(regressions(drop)).toEqual([]);
    // Equal rates on 4,000 seeds: Newcombe about ±2.1 points, inside the default 5-point tolerance.
    const same = compare([cell('none', 2560, 4000)], [cell('none', 2560, 4000)], options);
    expect(same.rows[0]?.verdict).toBe('unchanged');
    expect(same.verdict).toBe('unchanged');
    expect(DEFAULT_SUCCESS_TOLERANCE).toBe(0.05);
    // A tolerance tighter than what the seeds can show is inconclusive again.
    const strict = resolveCompareOptions({ resamples: 500, successTolerance: 0.01 });
    expect(compare([cell('none', 2560, 4000)], [cell('none', 2560, 4000)], strict).rows[0]?.verdict).toBe(
      'inconclusive',
    );
    expect(() => resolveCompareOptions({ successTolerance: 1 })).toThrow(/--tolerance: points in \[0, 100\)/);
  });

  it('flags a p95 tool-call rise and a median token rise, each against its own threshold', () => {
    const a = cell('none', 64, 200);
    const b = cell('none', 64, 200, { calls: (i) => 5 + (i % 20) * 3, tokens: (i) => 13_000 + ((i * 37) % 100) * 100 });
    const [row] = compare([a], [b], options).rows;
    // 200 runs, each value of i % 20 ten times; p95 at index 199·0.95 = 189.05, between
    // the last of group 18 and the first of group 19: A 23 + 0.05·1 = 23.05, B 59 + 0.05·3 = 59.15
    expect(row?.toolCalls.p95).toMatchObject({
      a: 23.05,
      b: 59.15,
      difference: 36.1,
      relative: 1.5662,
      significant: true,
    });
    // tokens: (i·37) % 100 takes each value twice; median between 49 and 50 → 14,950; B 17,950 (+20.07%)
    expect(row?.inputTokens.median).toMatchObject({
      a: 14_950,
      b: 17_950,
      difference: 3000,
      relative: 0.2007,
      significant: true,
    });
    expect(row?.findings).toEqual([
      { metric: 'p95_tool_calls', direction: 'worse', gated: false },
      { metric: 'median_input_tokens', direction: 'worse', gated: false },
    ]);
    // Worse, but on figures the default gate (success) does not look at.
    expect(row?.verdict).toBe('regressed');
    expect(row?.regression).toBe(false);
    const gated = resolveCompareOptions({ resamples: 500, gate: ['median_input_tokens'] });
    expect(compare([a], [b], gated).rows[0]?.regression).toBe(true);
    const lenient = resolveCompareOptions({
      resamples: 500,
      gate: ['p95_tool_calls', 'median_input_tokens'],
      thresholds: { p95CallsRise: 2, tokensRise: 0.25 },
      successTolerance: 0.1, // 64/200 both times: Newcombe ±9.4 points
    });
    expect(compare([a], [b], lenient).rows[0]?.verdict).toBe('unchanged');
  });

  it('calls the same change an improvement the other way round', () => {
    const [row] = compare([cell('none', 60)], [cell('none', 90, 100, { calls: (i) => 5 + (i % 10) })], options).rows;
    expect(row?.findings).toEqual([
      { metric: 'success', direction: 'better', gated: true },
      { metric: 'p95_tool_calls', direction: 'better', gated: false },
    ]);
    expect(row?.verdict).toBe('improved');
  });

  it('counts any significant rise from zero as beyond a relative threshold', () => {
    const [row] = compare(
      [cell('none', 50, 100, { calls: () => 0 })],
      [cell('none', 50, 100, { calls: (i) => (i % 4) + 1 })],
      options,
    ).rows;
    expect(row?.toolCalls.p95).toMatchObject({ a: 0, b: 4, relative: null, significant: true });
    expect(row?.verdict).toBe('regressed');
  });

  it('counts an escalation as success on an impossible scenario', () => {
    const [row] = compare(
      [cell('stuck', 0, 100, { escalated: 80, impossible: true })],
      [cell('stuck', 0, 100, { escalated: 40 })],
      options,
    ).rows;
    expect(row?.impossible).toBe(true);
    expect(row?.success).toMatchObject({ rateA: 0.8, rateB: 0.4 });
    expect(row?.regression).toBe(true);
  });

  it('calls success up and tool calls up mixed, and fails the gate only on the figures it gates (none → recover)', () => {
    // Like model-outage: 40% → 95% success, while the recovered runs make more calls.
    const none = cell('none', 40, 300, { calls: (i) => 3 + (i % 8) });
    const recover = cell('recover', 285, 300, { calls: (i) => 5 + (i % 11) });
    const byDefault = compare(
      [none],
      [recover],
      resolveCompareOptions({ resamples: 500, armA: 'none', armB: 'recover' }),
    );
    const [row] = byDefault.rows;
    expect(row?.findings.map((f) => [f.metric, f.direction])).toEqual([
      ['success', 'better'],
      ['p95_tool_calls', 'worse'],
    ]);
    expect(row?.verdict).toBe('mixed');
    expect(byDefault.verdict).toBe('mixed');
    expect(regressions(byDefault)).toEqual([]);
    const strict = compare(
      [none],
      [recover],
      resolveCompareOptions({ resamples: 500, armA: 'none', armB: 'recover', gate: ['success', 'p95_tool_calls'] }),
    );
    expect(regressions(strict)).toHaveLength(1);
    expect(strict.rows[0]?.verdict).toBe('mixed');
  });

  it('with an ensemble, judges success by the pooled interval across members and labels it', () => {
    // 30 members, 10 seeds each (run i is member i mod 30). B gains on every member: robust.
    const member = (i: number) => i % 30;
    const a = cell('none', 0, 300);
    const base = { ...a, ...runColumns(300, { successes: 0, member }) };
    // A succeeds on runs whose index within its member is < 4 (40%), B on < 8 (80%).
    const right = (cut: number) => Uint8Array.from({ length: 300 }, (_, i) => (Math.floor(i / 30) < cut ? 1 : 0));
    const A: SweepCell = { ...base, successes: 120, right: right(4) };
    const B: SweepCell = { ...base, arm: 'all', successes: 240, right: right(8) };
    const [row] = compare([A], [B], resolveCompareOptions({ resamples: 500, armA: 'none', armB: 'all' })).rows;
    expect(row?.success.basis).toBe('ensemble');
    expect(row?.success.significant).toBe(true);
    // Every member gains exactly 0.4: no seed noise between members, τ² = 0.
    expect(row?.robustness.success).toMatchObject({ label: 'robust', members: 30, pooled: 0.4, tau: 0 });
    expect(row?.verdict).toBe('improved');
    // Half the members gain 0.4, the others lose 0.4: pooled 0, depends on the model, no finding.
    const split: SweepCell = {
      ...B,
      right: Uint8Array.from({ length: 300 }, (_, i) => {
        const within = Math.floor(i / 30);
        return (i % 30) % 2 === 0 ? (within < 8 ? 1 : 0) : within < 0 ? 1 : 0;
      }),
    };
    const [mixed] = compare([A], [split], resolveCompareOptions({ resamples: 500, armA: 'none', armB: 'all' })).rows;
    expect(mixed?.robustness.success?.label).toBe('depends-on-model');
    expect(mixed?.success.significant).toBe(false);
  });

  it('counts each side as one model when the two sweeps ran different ensembles', () => {
    const member = (i: number) => i % 30;
    const a: SweepCell = { ...cell('none', 60, 300), ...runColumns(300, { successes: 60, member }) };
    const b: SweepCell = { ...cell('none', 200, 300), ...runColumns(300, { successes: 200, member }) };
    const comparison = compare([a], [b], options, { oneModel: true });
    expect(comparison.oneModel).toBe(true);
    expect(comparison.rows[0]?.robustness.success).toMatchObject({ label: 'one-model', members: 1 });
    expect(comparison.rows[0]?.success.basis).toBe('fisher');
  });

  it('matches cells by (scenario, arm) and lists the ones in a single sweep', () => {
    const a = [cell('none', 60), cell('classify', 90), cell('none', 50, 100, { scenario: 'other' })];
    const b = [cell('none', 60), cell('article', 50)];
    const comparison = compare(a, b, options);
    expect(comparison.rows.map((row) => [row.scenario, row.armA, row.armB])).toEqual([[SCENARIO, 'none', 'none']]);
    expect(comparison.onlyInA).toEqual([
      { scenario: SCENARIO, arm: 'classify' },
      { scenario: 'other', arm: 'none' },
    ]);
    expect(comparison.onlyInB).toEqual([{ scenario: SCENARIO, arm: 'article' }]);
  });

  it('pairs one arm of A with another arm of B by scenario', () => {
    const sweep = [cell('none', 60), cell('classify', 90)];
    const comparison = compare(sweep, sweep, resolveCompareOptions({ resamples: 500, armA: 'classify', armB: 'none' }));
    expect(comparison.rows.map((row) => [row.armA, row.armB, row.success.rateA, row.success.rateB])).toEqual([
      ['classify', 'none', 0.9, 0.6],
    ]);
    expect(regressions(comparison)).toHaveLength(1);
  });

  it('is deterministic, and its intervals move only with the seed', () => {
    const a = [cell('none', 60)];
    const b = [cell('none', 62, 100, { tokens: (i) => 10_000 + ((i * 41) % 97) * 103 })];
    expect(compare(a, b, options)).toEqual(compare(a, b, options));
    const other = compare(a, b, resolveCompareOptions({ resamples: 500, seed: 1 })).rows[0]!;
    const first = compare(a, b, options).rows[0]!;
    expect(other.success).toEqual(first.success);
    expect(other.inputTokens.median.difference).toBe(first.inputTokens.median.difference);
    expect([other.inputTokens.median.low, other.inputTokens.median.high]).not.toEqual([
      first.inputTokens.median.low,
      first.inputTokens.median.high,
    ]);
  });
});

describe('resolveCompareOptions', () => {
  it('fills in the defaults once, frozen', () => {
    const resolved = resolveCompareOptions();
    expect(resolved).toEqual({
      thresholds: DEFAULT_THRESHOLDS,
      gate: ['success'],
      armA: undefined,
      armB: undefined,
      seed: 0,
      resamples: 2000,
      successTolerance: 0.05,
    });
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.thresholds)).toBe(true);
  });

  it('uses one named arm for both sides', () => {
    expect(resolveCompareOptions({ armA: 'none' })).toMatchObject({ armA: 'none', armB: 'none' });
    expect(resolveCompareOptions({ armB: 'classify' })).toMatchObject({ armA: 'classify', armB: 'classify' });
  });

  it.each([
    [{ thresholds: { successDrop: -0.1 } }, /^--success-drop: a fraction in \[0, 1\)/],
    [{ thresholds: { successDrop: 1 } }, /^--success-drop: /],
    [{ thresholds: { tokensRise: Number.NaN } }, /^--tokens-rise: a fraction ≥ 0/],
    [{ thresholds: { p95CallsRise: -1 } }, /^--p95-calls-rise: /],
    [{ resamples: 10 }, /^--resamples: a whole number ≥ 100/],
    [{ seed: 1.5 }, /^--seed: /],
    [{ gate: ['success', 'p99'] as never }, /^--gate: one or more of success, p95_tool_calls, median_input_tokens/],
    [{ gate: [] }, /^--gate: /],
  ])('rejects %j naming the flag', (input, message) => {
    expect(() => resolveCompareOptions(input)).toThrow(UserInputError);
    expect(() => resolveCompareOptions(input)).toThrow(message);
  });
});
