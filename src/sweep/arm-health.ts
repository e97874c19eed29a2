import type { FailureReason } from '../results/field-schemas.js';
import { describeFailure } from '../run/failure-reason.js';
import type { RunRecord } from '../results/run-record-schema.js';

/**
 * Runs of an arm, among those that met no injected fault, that must all fail with the same
 * error before a sweep calls the arm broken: one failure is a flake, three alike in a row
 * with nothing injected is the arm's own setup (a missing setting, a wrong client option).
 */
export const BROKEN_ARM_RUNS = 3;

/** An arm whose runs all failed the same way: `runs` runs, each for `reason`. */
export interface BrokenArm {
  readonly arm: string;
  readonly runs: number;
  readonly reason: FailureReason;
}

/** A sweep stopped because an arm could not run; its finished runs are on disk. */
export class ArmCouldNotRun extends Error {
  override readonly name = 'ArmCouldNotRun';
  constructor(
    readonly broken: BrokenArm,
    readonly done: number,
    readonly total: number,
  ) {
    super(
      `arm ${broken.arm} could not run: its first ${broken.runs} runs that met no injected fault all failed with ${describeFailure(broken.reason)}; ${done < total ? `the sweep stopped after ${done} of ${total} runs, its finished runs kept` : `its ${total} runs are kept, but no summary was written`}. Fix the arm and run again (--overwrite starts the folder over)`,
    );
  }
}

const sameReason = (a: FailureReason, b: FailureReason): boolean =>
  a.error_class === b.error_class && a.status === b.status && a.message === b.message;

const injected = (counts: Readonly<Record<string, number>> | undefined): boolean =>
  counts !== undefined && Object.values(counts).some((count) => count > 0);

/**
 * Reads a sweep's records in sweep order and says when an arm is broken: every run of it so
 * far failed, and its first BROKEN_ARM_RUNS runs that met no injected fault (tool or model)
 * failed with one and the same `failure_reason`. A run that met a fault proves nothing
 * either way: failing under faults is what the sweep measures. One run that did not fail,
 * or two reasons, and the arm is left alone for the rest of the sweep.
 *
 * @example
 * const health = new ArmHealth();
 * for (const record of written) if (health.observe(record) !== null) stopTheSweep();
 */
export class ArmHealth {
  readonly #alike = new Map<string, { runs: number; reason: FailureReason }>();
  readonly #cleared = new Set<string>();

  /** Whether records of `arm` are still worth reading: an arm cleared once stays cleared. */
  watching(arm: string): boolean {
    return !this.#cleared.has(arm);
  }

  /** The broken arm once this record makes it one (exactly once), else null. */
  observe(record: RunRecord): BrokenArm | null {
    const { arm } = record;
    if (this.#cleared.has(arm)) return null;
    const reason = record.outcome === 'failed' ? record.failure_reason : undefined;
    if (reason === undefined) {
      this.#cleared.add(arm);
      return null;
    }
    if (injected(record.faults) || injected(record.model_faults)) return null;
    const seen = this.#alike.get(arm);
    if (seen !== undefined && !sameReason(seen.reason, reason)) {
      this.#cleared.add(arm);
      return null;
    }
    const runs = (seen?.runs ?? 0) + 1;
    this.#alike.set(arm, { runs, reason });
    if (runs < BROKEN_ARM_RUNS) return null;
    this.#cleared.add(arm);
    return { arm, runs, reason };
  }
}
