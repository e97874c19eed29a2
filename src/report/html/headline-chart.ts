import type { TopLevelSpec } from 'vega-lite';
import type { CellSummary } from '../../stats/cell-summary.js';
import { pct, rateWithInterval } from './format.js';
import type { HeadlineScenario } from './headline-data.js';
import { armColors, VERDICT_COLORS, VERDICT_ORDER } from './palette.js';

const ROW_STEP = 24;

/**
 * A scenario's arms side by side: the success rate (or right-outcome rate) with its 95%
 * interval as a bar, the baseline arm's rate as a dashed line; and beside it, the share
 * of each verdict per arm.
 */
export function headlineChart(
  scenario: HeadlineScenario,
  cells: readonly CellSummary[],
  arms: readonly string[],
): TopLevelSpec {
  const shown = scenario.rows.map((row) => row.arm);
  const colors = armColors(arms);
  const armScale = { domain: [...arms], range: colors };
  const rates = scenario.rows.map((row) => ({
    arm: row.arm,
    rate: row.rate.rate,
    low: row.rate.low,
    high: row.rate.high,
    label: pct(row.rate.rate),
    interval: rateWithInterval(row.rate),
  }));
  const baseline = scenario.rows.find((row) => row.arm === scenario.baseline);
  const verdicts = cells.flatMap((cell) =>
    VERDICT_ORDER.map((verdict, order) => ({
      arm: cell.arm,
      verdict,
      order,
      count: cell.verdicts[verdict] ?? 0,
      share: cell.runs === 0 ? 0 : (cell.verdicts[verdict] ?? 0) / cell.runs,
    })),
  );
  const y = { field: 'arm', type: 'nominal', sort: shown, title: null, axis: { labelLimit: 0 } } as const;
  return {
    spacing: 28,
    // Arms and verdicts are two colour scales, not one.
    resolve: { scale: { color: 'independent' } },
    hconcat: [
      {
        title: {
          text: scenario.impossible ? 'Right outcome (escalated)' : 'Success rate',
          subtitle: `95% Wilson interval${baseline === undefined ? '' : ` · dashed: ${scenario.baseline}`}`,
        },
        width: 380,
        height: { step: ROW_STEP },
        data: { values: rates },
        layer: [
          ...(baseline === undefined
            ? []
            : [
                {
                  mark: { type: 'rule' as const, strokeDash: [4, 3], color: '#94a3b8' },
                  encoding: { x: { datum: baseline.rate.rate, type: 'quantitative' as const } },
                },
              ]),
          {
            mark: { type: 'rule', strokeWidth: 5, opacity: 0.4, strokeCap: 'round' },
            encoding: {
              y,
              x: {
                field: 'low',
                type: 'quantitative',
                scale: { domain: [0, 1] },
                axis: { format: '%', tickCount: 5 },
                title: null,
              },
              x2: { field: 'high' },
              color: { field: 'arm', type: 'nominal', scale: armScale, legend: null },
              tooltip: { field: 'interval' },
            },
          },
          {
            mark: { type: 'point', filled: true, size: 60 },
            encoding: {
              y,
              x: { field: 'rate', type: 'quantitative' },
              color: { field: 'arm', type: 'nominal', scale: armScale, legend: null },
            },
          },
          {
            mark: { type: 'text', align: 'left', dx: 6, fontSize: 11, color: '#334155' },
            encoding: { y, x: { field: 'high', type: 'quantitative' }, text: { field: 'label' } },
          },
        ],
      },
      {
        title: { text: 'Verdicts', subtitle: 'share of runs, judged on the world' },
        width: 320,
        height: { step: ROW_STEP },
        data: { values: verdicts },
        mark: { type: 'bar', height: { band: 0.7 } },
        encoding: {
          y: { ...y, axis: null },
          x: {
            field: 'share',
            type: 'quantitative',
            stack: 'zero',
            scale: { domain: [0, 1] },
            axis: { format: '%', tickCount: 5 },
            title: null,
          },
          color: {
            field: 'verdict',
            type: 'nominal',
            scale: { domain: [...VERDICT_ORDER], range: [...VERDICT_COLORS] },
            legend: { orient: 'bottom', title: null, direction: 'horizontal' },
          },
          order: { field: 'order' },
          tooltip: [{ field: 'arm' }, { field: 'verdict' }, { field: 'count' }],
        },
      },
    ],
  } as TopLevelSpec;
}
