import { z } from 'zod';
import type { Rng } from '../../random/streams.js';
import type { DataFaultKind } from '../../tools/tool-fault.js';
import type { Json } from '../../tools/world.js';
import { emptyResult } from './empty-result.js';
import { injectedInstructions } from './injected-instructions.js';
import { schemaDrift } from './schema-drift.js';
import { staleRead } from './stale-read.js';
import { truncatedPage } from './truncated-page.js';
import { wrongEntity } from './wrong-entity.js';

/** Every fault kind in the data, in draw order (DATA_FAULT_KINDS; a test holds the two together). */
export const DATA_FAULTS = [
  injectedInstructions,
  staleRead,
  wrongEntity,
  emptyResult,
  truncatedPage,
  schemaDrift,
] as const;

export const toolDataFaultsSchema = z.strictObject({
  injected_instructions: injectedInstructions.withRate.optional(),
  stale_read: staleRead.withRate.optional(),
  wrong_entity: wrongEntity.withRate.optional(),
  empty_result: emptyResult.withRate.optional(),
  truncated_page: truncatedPage.withRate.optional(),
  schema_drift: schemaDrift.withRate.optional(),
});

/**
 * One tool's data faults as a scenario's `faults.data.<tool>` writes them, and as `withFaults`
 * takes them: each kind with its `rate` and settings.
 *
 * @example
 * const faults: ToolDataFaults = {
 *   wrong_entity: { rate: 0.2, value: { id: 'o_2', total: 80 } },
 *   injected_instructions: { rate: 1, template: 'authority', goal: { tool: 'create_refund', input: { order_id: 'o_9' } } },
 * };
 */
export type ToolDataFaults = z.output<typeof toolDataFaultsSchema>;

/** A data fault's settings as the scenario gave them, and the cumulative draw threshold that selects it. */
interface Armed {
  readonly kind: DataFaultKind;
  readonly threshold: number;
  readonly apply: (answer: Json, rng: Rng) => Json | undefined;
}

/**
 * One tool's data faults, ready to draw: one uniform draw per successful execution picks at
 * most one, in DATA_FAULTS order, so the same draw picks the same fault in every arm.
 */
export class DataFaultPlan {
  readonly #armed: readonly Armed[];

  constructor(faults: ToolDataFaults) {
    let total = 0;
    const armed: Armed[] = [];
    for (const fault of DATA_FAULTS) {
      const settings = faults[fault.kind];
      if (settings === undefined || settings.rate <= 0) continue;
      total += settings.rate;
      // The definition's own settings type: each entry of the schema is that fault's.
      const apply = fault.apply as (answer: Json, settings: unknown, rng: Rng) => Json | undefined;
      armed.push({ kind: fault.kind, threshold: total, apply: (answer, rng) => apply(answer, settings, rng) });
    }
    if (total > 1 + 1e-9) throw new RangeError(`data fault rates add up to ${total}, more than 1`);
    this.#armed = armed;
  }

  /** Whether any fault can be drawn. */
  get armed(): boolean {
    return this.#armed.length > 0;
  }

  /** The answer under the fault a draw of `u` selects: unchanged (fault null) when none is drawn or it cannot apply. */
  apply(answer: Json, u: number, rng: Rng): { readonly answer: Json; readonly fault: DataFaultKind | null } {
    for (const armed of this.#armed) {
      if (u >= armed.threshold) continue;
      const changed = armed.apply(answer, rng);
      return changed === undefined ? { answer, fault: null } : { answer: changed, fault: armed.kind };
    }
    return { answer, fault: null };
  }
}
