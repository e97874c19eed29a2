import type { TopLevelSpec } from 'vega-lite';
import type { Distribution } from '../../stats/descriptive.js';
import type { CellDistribution } from './distribution-data.js';
import { armColors } from './palette.js';

/** Which metric a distribution chart shows. */
export type DistributionMetric = 'toolCalls' | 'inputTokens';

/** A traced run to mark on its arm's row, linked to its timeline. */
export interface RunMarker {
  readonly arm: string;
  readonly toolCalls: number;
  readonly inputTokens: number;
  /** `#run-<n>`: the timeline's anchor in the page. */
  readonly href: string;
  readonly label: string;
}

const AXIS: Readonly<Record<DistributionMetric, { title: string; ticks: readonly number[]; format: string }>> = {
  toolCalls: {
    title: 'tool calls per run (log scale)',
    ticks: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
    format: 'd',
  },
  inputTokens: { title: 'input tokens per run (log scale)', ticks: [1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8], format: '~s' },
};

function axisScale(metric: DistributionMetric, cells: readonly CellDistribution[]) {
  const bins = cells.flatMap((cell) => cell[metric].bins);
  const low = Math.min(...bins.map((bin) => bin.start));
  const high = Math.max(...bins.map((bin) => bin.end));
  const ticks = AXIS[metric].ticks.filter((tick) => tick >= low && tick <= high);
  // Tool calls can be 0, which a log scale cannot place: symlog is log-like above 1 and keeps 0.
  const scale =
    metric === 'toolCalls'
      ? { type: 'symlog', constant: 1, domain: [low, high] }
      : { type: 'log', domain: [low, high] };
  return { scale, axis: { values: ticks, format: AXIS[metric].format, title: AXIS[metric].title, grid: true } };
}

/**
 * One metric's distribution for every arm of a scenario, a row per arm on one shared log
 * axis: histogram bars (share of runs per bin, square-root scale so the thin tail shows),
 * the median (solid) and p95 (dashed), and the traced runs as triangles linked to their
 * timelines.
 */
export function distributionChart(
  metric: DistributionMetric,
  cells: readonly CellDistribution[],
  stats: ReadonlyMap<string, Distribution>,
  markers: readonly RunMarker[],
  arms: readonly string[],
): TopLevelSpec {
  const shown = cells.map((cell) => cell.arm);
  const values = [
    ...cells.flatMap((cell) =>
      cell[metric].bins.map((bin) => ({
        kind: 'bin',
        arm: cell.arm,
        start: bin.start,
        end: bin.end,
        lower: bin.lower,
        upper: bin.upper,
        runs: bin.count,
        share: Number((bin.count / cell.runs).toPrecision(4)),
      })),
    ),
    ...cells.flatMap((cell) => {
      const d = stats.get(cell.arm);
      return d === undefined
        ? []
        : [
            { kind: 'stat', arm: cell.arm, stat: 'median', value: d.median },
            { kind: 'stat', arm: cell.arm, stat: 'p95', value: d.p95 },
          ];
    }),
    ...markers.map((marker) => ({
      kind: 'run',
      arm: marker.arm,
      value: metric === 'toolCalls' ? marker.toolCalls : marker.inputTokens,
      href: marker.href,
      run: marker.label,
    })),
  ];
  const { scale, axis } = axisScale(metric, cells);
  const x = { type: 'quantitative', scale, axis } as const;
  return {
    data: { values },
    facet: {
      row: {
        field: 'arm',
        type: 'nominal',
        sort: shown,
        header: {
          labelAngle: 0,
          labelAlign: 'right',
          labelAnchor: 'middle',
          labelLimit: 0,
          labelPadding: 4,
          title: null,
        },
      },
    },
    spacing: 6,
    spec: {
      width: 600,
      height: 40,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'bin'" }],
          mark: { type: 'rect', opacity: 0.85 },
          encoding: {
            x: { field: 'start', ...x },
            x2: { field: 'end' },
            y: { field: 'share', type: 'quantitative', scale: { type: 'sqrt' }, axis: null },
            y2: { datum: 0 },
            color: {
              field: 'arm',
              type: 'nominal',
              scale: { domain: [...arms], range: armColors(arms) },
              legend: null,
            },
            tooltip: [
              { field: 'lower', title: 'from' },
              { field: 'upper', title: 'to' },
              { field: 'runs' },
              { field: 'share', format: '.1%' },
            ],
          },
        },
        {
          transform: [{ filter: "datum.kind === 'stat'" }],
          mark: { type: 'rule', color: '#0f172a', strokeWidth: 1.5 },
          encoding: {
            x: { field: 'value', ...x },
            strokeDash: {
              field: 'stat',
              type: 'nominal',
              scale: {
                domain: ['median', 'p95'],
                range: [
                  [1, 0],
                  [4, 3],
                ],
              },
              legend: { orient: 'top', title: null },
            },
            tooltip: [{ field: 'stat' }, { field: 'value' }],
          },
        },
        {
          transform: [{ filter: "datum.kind === 'run'" }],
          mark: { type: 'point', shape: 'triangle-down', filled: true, size: 70, color: '#0f172a', cursor: 'pointer' },
          // A pixel position, not a datum: a marker must not stretch the shared share scale.
          encoding: {
            x: { field: 'value', ...x },
            y: { value: 5 },
            href: { field: 'href' },
            tooltip: { field: 'run' },
          },
        },
      ],
    },
    resolve: { scale: { x: 'shared', y: 'shared' } },
  } as TopLevelSpec;
}

/**
 * The tail of every arm on one chart: the share of runs that needed at least x tool calls,
 * log on both axes, so a fat tail is a line that stays high and a capped arm drops at its cap.
 */
export function tailChart(
  metric: DistributionMetric,
  cells: readonly CellDistribution[],
  arms: readonly string[],
): TopLevelSpec {
  const values = cells.flatMap((cell) =>
    cell[metric].survival.map((point) => ({ arm: cell.arm, at: point.at, share: Number(point.share.toPrecision(4)) })),
  );
  const smallest = Math.min(0.01, ...values.map((point) => point.share));
  const ticks = [1, 0.1, 0.01, 0.001, 0.0001, 0.00001].filter((tick) => tick >= smallest);
  const { scale, axis } = axisScale(metric, cells);
  return {
    width: 600,
    height: 220,
    title: {
      text: 'The tail',
      subtitle:
        metric === 'toolCalls'
          ? 'share of runs that made at least this many tool calls'
          : 'share of runs that used at least this many input tokens',
    },
    data: { values },
    mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.75, point: false },
    encoding: {
      x: { field: 'at', type: 'quantitative', scale, axis },
      y: {
        field: 'share',
        type: 'quantitative',
        scale: { type: 'log', domain: [smallest, 1] },
        axis: { values: ticks, format: '~%', title: 'share of runs (log scale)' },
      },
      color: {
        field: 'arm',
        type: 'nominal',
        sort: cells.map((cell) => cell.arm),
        scale: { domain: [...arms], range: armColors(arms) },
        // Every arm, each name whole: a legend cut at 30 entries or 160 px hides which line is which.
        legend: { title: 'arm', orient: 'right', labelLimit: 0, symbolLimit: arms.length },
      },
    },
  } as TopLevelSpec;
}
