import { describe, expect, it } from 'vitest';
import type { HeadlineRow, HeadlineScenario } from './headline-data.js';
import { headlineScenario } from './headline-section.js';
import type { RenderedChart } from './render-chart.js';

const distribution = (p95: number) => ({ median: p95 / 2, p95, max: p95 * 2, mean: p95 / 2 });

function row(arm: string, rate: number, p95: number, outcomes: HeadlineRow['outcomes']): HeadlineRow {
  return {
    arm,
    runs: 100,
    rate: { successes: rate * 100, trials: 100, rate, low: rate - 0.1, high: rate + 0.1 },
    vsBaseline: null,
    toolCalls: distribution(p95),
    inputTokens: distribution(1000),
    outputTokens: distribution(100),
    costPerRun: p95 / 1000,
    costPerSuccess: rate === 0 ? undefined : p95 / 1000 / rate,
    outcomes,
    verdicts: [],
    duplicateSideEffects: 0,
  };
}

const chart = { id: 'c', label: 'chart', svg: '<svg></svg>', spec: {}, warnings: [] } as unknown as RenderedChart;

describe('headlineScenario', () => {
  it('never names an arm whose runs ended in an error the tightest tail or the cheapest', () => {
    // crashy fails every run at once: the shortest tail and the lowest bill, for that reason alone.
    const scenario: HeadlineScenario = {
      id: 's',
      impossible: false,
      baseline: 'none',
      rows: [
        row('none', 0.6, 20, [['completed', 100]]),
        row('article', 0.7, 12, [['completed', 100]]),
        row('crashy', 0.01, 1, [
          ['failed', 99],
          ['completed', 1],
        ]),
      ],
    };
    const text = String(headlineScenario(scenario, 's', chart, ['none', 'article', 'crashy']));
    expect(text).toContain('Tightest tail: <b>article</b>');
    expect(text).not.toMatch(/Tightest tail: <b>crashy|Cheapest per success: <b>crashy/);
  });
});
