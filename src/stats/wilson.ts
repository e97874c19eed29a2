/** A proportion with its 95% Wilson score interval. */
export interface Proportion {
  readonly successes: number;
  readonly trials: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

const Z95 = 1.959963984540054;

/**
 * The Wilson score interval: unlike the normal approximation it stays inside [0, 1] and
 * behaves at rates near 0 or 1 and at small n.
 */
export function wilson(successes: number, trials: number, z = Z95): Proportion {
  if (trials === 0) return { successes, trials, rate: 0, low: 0, high: 0 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (z / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const r = (x: number) => Math.round(x * 10_000) / 10_000;
  return { successes, trials, rate: r(p), low: r(Math.max(0, centre - half)), high: r(Math.min(1, centre + half)) };
}
