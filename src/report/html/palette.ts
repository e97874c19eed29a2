/**
 * Arm colours, in arm order: the same arm has the same colour in every chart. None is a
 * red, orange, amber or green: those are the verdicts' (harmful, escalated, success), and an
 * arm drawn in one would read as a verdict. palette.test.ts keeps them apart.
 */
const ARM_PALETTE = [
  '#64748b',
  '#2563eb',
  '#7c3aed',
  '#0891b2',
  '#1e293b',
  '#c026d3',
  '#4f46e5',
  '#0e7490',
  '#a78bfa',
  '#1d4ed8',
  '#78716c',
  '#6b21a8',
] as const;

/** A colour per arm, for a Vega-Lite scale's `range` (cycling past twelve arms). */
export function armColors(arms: readonly string[]): string[] {
  return arms.map((_, index) => ARM_PALETTE[index % ARM_PALETTE.length]!);
}

/** Verdicts in reading order, with their colours: good, honest, wrong, harmful. */
export const VERDICT_ORDER = ['success', 'escalated', 'failure', 'harmful'] as const;
export const VERDICT_COLORS = ['#16a34a', '#f59e0b', '#94a3b8', '#dc2626'] as const;
