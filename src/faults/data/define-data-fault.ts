import { z } from 'zod';
import type { Rng } from '../../random/streams.js';
import type { DataFaultKind } from '../../tools/tool-fault.js';
import type { Json } from '../../tools/world.js';

/** What `defineDataFault` is given: one fault in the content of a successful answer. */
export interface DataFaultDefinition<Kind extends DataFaultKind, Settings extends z.ZodObject> {
  readonly kind: Kind;
  /** One sentence for docs and `--help`: what the agent gets back. */
  readonly description: string;
  /** Its settings besides `rate`, each with a default where one makes sense. */
  readonly settings: Settings;
  /**
   * The answer as the fault leaves it, or undefined where the fault cannot apply to this
   * answer (no string to inject into, no list to cut): the answer then goes out as it was.
   * Never edits `answer` (it may be a frozen record of the world).
   */
  apply(answer: Json, settings: z.output<Settings>, rng: Rng): Json | undefined;
}

const rate = z.number().min(0).max(1).describe('Chance per successful execution that the answer carries this fault.');

/** A data fault as the registry holds it: its definition, and its settings with `rate` added (as a scenario writes them). */
export interface DataFault<Kind extends DataFaultKind, Settings extends z.ZodObject>
  extends DataFaultDefinition<Kind, Settings> {
  readonly withRate: z.ZodObject<Settings['shape'] & { rate: typeof rate }, z.core.$strict>;
}

/**
 * A fault kind in the data, as one module defines it: the built-in kinds are written with it.
 *
 * @example
 * export const emptyResult = defineDataFault({
 *   kind: 'empty_result',
 *   description: 'The answer says nothing matched, where there is data.',
 *   settings: z.strictObject({}),
 *   apply: (answer) => (Array.isArray(answer) ? [] : {}),
 * });
 */
export function defineDataFault<Kind extends DataFaultKind, Settings extends z.ZodObject>(
  definition: DataFaultDefinition<Kind, Settings>,
): DataFault<Kind, Settings> {
  // extend() of a generic object is typed loosely; the shape is exactly the settings' and rate.
  const withRate = definition.settings.extend({ rate }) as unknown as DataFault<Kind, Settings>['withRate'];
  return Object.freeze({ ...definition, withRate });
}

/** Whether a JSON value is an object (not an array, not null). */
export function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
