import { signedEffect } from './robustness-format.js';
import type { CellConclusion, PriorSensitivity } from './prior-sensitivity.js';

const cells = (n: number) => `${n} cell${n === 1 ? '' : 's'}`;
const arms = (n: number) => `${n} arm${n === 1 ? '' : 's'}`;

const conclusionText = (c: CellConclusion | null) =>
  c === null ? 'no paired runs' : `${signedEffect(c.pooled, 'points')} ${c.label}`;

/**
 * The run output's closing section: the cells whose success label or sign changes with
 * the prior-only parameters at an edge of their ranges, then the arms whose harmful-rate
 * label or sign against the baseline changes there; a part in which nothing changes is
 * one line saying so.
 *
 * @example
 * process.stdout.write(`\n${renderPriorSensitivity(sensitivity)}\n`);
 */
export function renderPriorSensitivity(sensitivity: PriorSensitivity): string {
  return `${successPart(sensitivity)}\n${harmfulPart(sensitivity)}`;
}

function successPart(sensitivity: PriorSensitivity): string {
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

// The same edges as the success part above it, so it names neither them nor the parameters again.
function harmfulPart(sensitivity: PriorSensitivity): string {
  const { baseline, arms: all } = sensitivity.harmful;
  const changed = all.filter((arm) => arm.changesAt.length > 0);
  const what = `Harmful rate against ${baseline}, as the answer table pools it:`;
  if (changed.length === 0) return `${what} no arm's label or sign changes at either edge (${arms(all.length)}).`;
  const width = Math.max(...changed.map((arm) => arm.arm.length));
  return [
    `${what} ${changed.length} of ${arms(all.length)} change${changed.length === 1 ? 's' : ''} label or sign at an edge;`,
    'they depend on the same untested assumptions:',
    ...changed.map(
      (arm) =>
        `  ${arm.arm.padEnd(width)}  ${conclusionText(arm.main)} · low: ${conclusionText(arm.low)} · high: ${conclusionText(arm.high)}`,
    ),
  ].join('\n');
}
