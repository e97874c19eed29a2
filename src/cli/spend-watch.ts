import { SpendLimit } from '../model/spend-limit.js';
import { formatDollars } from '../report/prices.js';
import type { RunRecord } from '../results/run-record-schema.js';
import type { SweepStop } from './sweep-until-interrupted.js';

/** A real sweep stopped at its `--max-cost`: the runs written are kept, and `--resume` goes on. */
export class SpendLimitStopped extends Error {
  override readonly name = 'SpendLimitStopped';
}

/** What holds a real sweep to `--max-cost` while it runs. */
export interface SpendWatch {
  readonly limit: SpendLimit;
  /**
   * For the sweep's `onRecord`: charges the runs of agent and peer arms, which reach the
   * model through their own clients (our loop's calls are charged as they are answered).
   */
  readonly onRecord: (record: RunRecord) => void;
  /** Aborted once the spend reaches the limit; the sweep then throws SpendLimitStopped. */
  readonly stop: SweepStop;
}

/**
 * The spend limit of one `run` command: what it may spend on the model, counted from its
 * first call (a resumed sweep may spend it again). No call starts once it is reached; the
 * calls in flight then are paid for, so the spend ends within them of the limit.
 */
export function watchSpend(maxCostUsd: number, outDir: string, chargedByRecord: ReadonlySet<string>): SpendWatch {
  const limit = new SpendLimit(maxCostUsd);
  return {
    limit,
    onRecord(record) {
      if (chargedByRecord.has(record.arm)) limit.charge(record.cost_usd);
    },
    stop: {
      signal: limit.signal,
      error: ({ done, total, resume }) =>
        new SpendLimitStopped(
          `stopped at --max-cost ${formatDollars(limit.limitUsd)}: ${formatDollars(limit.spentUsd)} spent (the calls in flight when it was reached are paid for; a run they cut short is left out, and so are the runs after it that finished meanwhile, for results are written in order: they run again on resume); ${done} of ${total} runs are written to ${outDir}; a resume may spend its --max-cost again: ${resume}`,
        ),
    },
  };
}
