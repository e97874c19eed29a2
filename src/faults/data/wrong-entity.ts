import { z } from 'zod';
import { defineDataFault } from './define-data-fault.js';

/**
 * The lookup returns another entity's record: another customer, another order. The
 * answer is well formed and plausible; only its identifiers say it is not the one asked for.
 */
export const wrongEntity = defineDataFault({
  kind: 'wrong_entity',
  description: "The answer is another entity's record (another customer or order), well formed and plausible.",
  settings: z.strictObject({
    value: z.json().describe('The record of the other entity, as the tool would return it.'),
  }),
  apply: (_answer, { value }) => value,
});
