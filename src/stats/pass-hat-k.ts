/** How one task fared over repeated trials. */
export interface TaskTrials {
  readonly trials: number;
  readonly successes: number;
}

/**
 * pass^k as τ-bench defines it: the chance that k trials of a task, drawn without
 * replacement from its n, all succeed — C(c, k) / C(n, k), 0 when c < k — averaged over
 * tasks. It is exact (not an estimate by resampling) and needs k ≤ n for every task.
 * pass^1 is the mean success rate; pass^k falls as k grows when success is not reliable.
 *
 * @example
 * passHatK([{ trials: 4, successes: 2 }], 2); // 1/6
 */
export function passHatK(tasks: readonly TaskTrials[], k: number): number {
  if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`pass^k needs a whole k ≥ 1; got ${k}`);
  if (tasks.length === 0) throw new RangeError('pass^k needs at least one task');
  let sum = 0;
  for (const { trials: n, successes: c } of tasks) {
    if (!Number.isSafeInteger(n) || !Number.isSafeInteger(c) || c < 0 || c > n) {
      throw new RangeError(`pass^k needs 0 ≤ successes ≤ trials, whole numbers; got ${c} of ${n}`);
    }
    if (k > n) throw new RangeError(`pass^${k} needs at least ${k} trials per task; a task has ${n}`);
    // C(c,k)/C(n,k) = ∏_{i<k} (c−i)/(n−i): no factorials, so no overflow for large n.
    let ratio = 1;
    for (let i = 0; i < k && ratio > 0; i++) ratio *= (c - i) / (n - i);
    sum += ratio;
  }
  return sum / tasks.length;
}
