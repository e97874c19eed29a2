import type { FailureReason } from '../results/field-schemas.js';
import type { RunRecord } from '../results/run-record-schema.js';

/**
 * Finished runs a real sweep waits for before it concludes that its model never answers:
 * enough that one unlucky run (a dropped connection) does not stop it, few enough that a
 * wrong URL, key or model id costs seconds, not the whole sweep.
 */
export const UNANSWERED_RUNS_TO_STOP = 3;

/** The model never answered: `runs` runs all failed before a single reply, the first for `reason`. */
export interface NeverAnswered {
  readonly runs: number;
  readonly reason: FailureReason;
}

/**
 * Reads a real sweep's records as they are written, in sweep order, and says when the
 * model has plainly never answered: the first UNANSWERED_RUNS_TO_STOP runs (or every run
 * of a shorter sweep, at its end) all failed on a model-call error before any reply —
 * nothing listens at the URL, the key is refused (401/403), the model id is unknown (404),
 * or every call failed. One reply anywhere in them and the sweep is left alone: then the
 * failures are results, not a broken setup. A simulated sweep is never read by it: its
 * model faults are the experiment.
 *
 * @example
 * const health = new SweepHealth();
 * for (const record of written) if (health.observe(record) !== null) stopTheSweep();
 */
export class SweepHealth {
  #runs = 0;
  #first: FailureReason | null = null;
  /** Whether every run seen so far failed before a reply. */
  #unanswered = true;

  /** The verdict once this record makes it one (exactly once, at the threshold), else null. */
  observe(record: RunRecord): NeverAnswered | null {
    this.#runs += 1;
    if (this.#runs > UNANSWERED_RUNS_TO_STOP) return null;
    // No model call answered and an error ended the run: only a model call can fail before the first reply.
    const reason = record.model_calls === 0 && record.outcome === 'failed' ? record.failure_reason : undefined;
    if (reason === undefined) this.#unanswered = false;
    this.#first ??= reason ?? null;
    return this.#runs === UNANSWERED_RUNS_TO_STOP ? this.#verdict() : null;
  }

  /** At the end of a sweep: the verdict for one too short to have reached the threshold, else null. */
  finish(): NeverAnswered | null {
    return this.#runs > 0 && this.#runs < UNANSWERED_RUNS_TO_STOP ? this.#verdict() : null;
  }

  #verdict(): NeverAnswered | null {
    return this.#unanswered && this.#first !== null ? { runs: this.#runs, reason: this.#first } : null;
  }
}
