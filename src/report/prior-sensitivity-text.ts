import { signedEffect } from './robustness-format.js';
import type { CellConclusion, PriorSensitivity } from './prior-sensitivity.js';

const cells = (n: number) => `${n} cell${n === 1 ? '' : 's'}`;

const conclusionText = (c: CellConclusion | null) =>
  c === null ? 'no paired runs' : `${signedEffect(c.pooled, 'points')} ${c.label}`;

/**
 * The run output's closing section: the cells whose success label or sign changes with
 * the prior-only parameters at an edge of their ranges, or a line saying none does.
 *
 * @example
 * process.stdout.write(`\n${renderPriorSensitivity(sensitivity)}\n`);
 */
export function renderPriorSensitivity(sensitivity: PriorSensitivity): string {
  const moved = sensitivity.parameters.map((entry) => entry.parameter).join(', ');
  const changed = sensitivity.cells.filter((cell) => cell.changesAt.length > 0);
  const edges = `the ${sensitivity.parameters.length} prior-only parameters moved together to the low, then the high edge of their ranges`;
  if (changed.length === 0)
    return `Sensitivity to priors: no cell's success label or sign changes with ${edges} (${cells(sensitivity.cells.length)}; ${moved}).`;
  const width = Math.max(...changed.map((cell) => `${cell.scenario} · ${cell.arm}`.length));
  return [
    `Sensitivity to priors: ${changed.length} of ${cells(sensitivity.cells.length)} change${changed.length === 1 ? 's' : ''} success label or sign with ${edges};`,
    `they depend on untested assumptions (${moved}):`,
    ...changed.map(
      (cell) =>
        `  ${`${cell.scenario} · ${cell.arm}`.padEnd(width)}  ${conclusionText(cell.main)} · low: ${conclusionText(cell.low)} · high: ${conclusionText(cell.high)}`,
    ),
  ].join('\n');
}
