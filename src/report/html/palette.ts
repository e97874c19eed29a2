/** Arm colours, in arm order: the same arm has the same colour in every chart. */
const ARM_PALETTE = [
  '#64748b',
  '#2563eb',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#8b5cf6',
  '#0891b2',
  '#db2777',
  '#65a30d',
  '#ea580c',
  '#4f46e5',
  '#0d9488',
] as const;

/** A colour per arm, for a Vega-Lite scale's `range` (cycling past twelve arms). */
export function armColors(arms: readonly string[]): string[] {
  return arms.map((_, index) => ARM_PALETTE[index % ARM_PALETTE.length]!);
}

/** Verdicts in reading order, with their colours: good, honest, wrong, harmful. */
export const VERDICT_ORDER = ['success', 'escalated', 'failure', 'harmful'] as const;
export const VERDICT_COLORS = ['#16a34a', '#f59e0b', '#94a3b8', '#dc2626'] as const;
