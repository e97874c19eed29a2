import type { TopLevelSpec } from 'vega-lite';
import { num, pct } from './format.js';

/** One cell of an ablation heatmap: a value and the lines of its label. */
export interface HeatCell {
  readonly scenario: string;
  readonly arm: string;
  readonly value: number;
  /** Shown in the cell: the value, then its 95% interval. */
  readonly label: string;
}

/** The success heatmap's cells: rate with its Wilson interval (right outcome where the scenario is impossible). */
export function successCell(
  scenario: string,
  arm: string,
  rate: { readonly rate: number; readonly low: number; readonly high: number },
): HeatCell {
  return {
    scenario,
    arm,
    value: rate.rate,
    label: `${pct(rate.rate)}\n[${(rate.low * 100).toFixed(1)}, ${(rate.high * 100).toFixed(1)}]`,
  };
}

/** The p95 heatmap's cells: p95 tool calls with its order-statistic interval. */
export function p95Cell(
  scenario: string,
  arm: string,
  p95: number,
  interval: { readonly low: number; readonly high: number },
): HeatCell {
  return { scenario, arm, value: p95, label: `${num(p95)}\n[${num(interval.low)}, ${num(interval.high)}]` };
}

export interface HeatmapOptions {
  readonly title: string;
  readonly subtitle: string;
  /** Colour scale: rates on [0, 1] (more is better), or counts on a log scale (more is worse). */
  readonly kind: 'rate' | 'count';
}

/** The most arms drawn across a heatmap: 84 px a cell, a 1280 px page. */
const MAX_ARMS_ACROSS = 12;

/**
 * Scenario × arm, one coloured cell each, labelled with the value and its 95% interval:
 * the whole ablation at a glance.
 */
export function heatmap(
  cells: readonly HeatCell[],
  scenarios: readonly string[],
  arms: readonly string[],
  options: HeatmapOptions,
): TopLevelSpec {
  const max = Math.max(1, ...cells.map((cell) => cell.value));
  const color =
    options.kind === 'rate'
      ? {
          scale: { domain: [0, 1], scheme: 'blues' },
          legend: { format: '%', title: null, orient: 'bottom', direction: 'horizontal', gradientLength: 220 },
        }
      : {
          scale: { type: 'symlog', domain: [0, max], scheme: 'orangered' },
          legend: {
            title: null,
            orient: 'bottom',
            direction: 'horizontal',
            gradientLength: 220,
            values: [0, 1, 10, 100, 1000, 10_000].filter((tick) => tick <= max),
          },
        };
  // Dark cells get white text: the darker part of either scheme (symlog puts v at log1p(v) / log1p(max)).
  const dark =
    options.kind === 'rate'
      ? 'datum.value > 0.6'
      : `datum.value > ${Number(Math.expm1(0.6 * Math.log1p(max)).toFixed(2))}`;
  // Arms across the top while they fit a page; an ablation's many arms go down the side
  // instead, so the cells keep their size rather than the whole chart being shrunk to fit.
  const armsAcross = arms.length <= MAX_ARMS_ACROSS;
  const x = {
    field: armsAcross ? 'arm' : 'scenario',
    type: 'nominal',
    sort: [...(armsAcross ? arms : scenarios)],
    title: null,
    axis: { orient: 'top', labelAngle: -30, labelAlign: 'left', labelLimit: 0, domain: false, ticks: false },
  } as const;
  const y = {
    field: armsAcross ? 'scenario' : 'arm',
    type: 'nominal',
    sort: [...(armsAcross ? scenarios : arms)],
    title: null,
    axis: { labelLimit: 0, domain: false, ticks: false },
  } as const;
  return {
    title: { text: options.title, subtitle: options.subtitle },
    data: { values: cells },
    width: { step: 84 },
    height: { step: 46 },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 2 },
        encoding: { x, y, color: { field: 'value', type: 'quantitative', ...color } },
      },
      {
        mark: { type: 'text', fontSize: 11, lineBreak: '\n', lineHeight: 14 },
        encoding: {
          x,
          y,
          text: { field: 'label' },
          color: { condition: { test: dark, value: 'white' }, value: '#0f172a' },
        },
      },
    ],
  } as TopLevelSpec;
}
