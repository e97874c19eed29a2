import { z } from 'zod';
import { defineDataFault, isObject } from './define-data-fault.js';
import type { Json } from '../../tools/world.js';

const retypes = {
  string: (value: Json) => (typeof value === 'string' ? value : JSON.stringify(value)),
  number: Number,
};

/** One record after the deploy: fields renamed, then retyped. */
function drifted(
  record: { [key: string]: Json },
  rename: Readonly<Record<string, string>>,
  retype: Readonly<Record<string, keyof typeof retypes>>,
): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(record)) {
    const name = rename[key] ?? key;
    const type = retype[name];
    const converted = type === undefined ? value : retypes[type](value);
    // A number that does not parse goes out as null, as a careless serialiser writes it.
    out[name] = typeof converted === 'number' && Number.isNaN(converted) ? null : converted;
  }
  return out;
}

/**
 * A deploy changed the answer's shape: a field renamed (`email` → `email_address`) or
 * retyped (a number sent as a string). Applied to a record, or to each record of a list.
 */
export const schemaDrift = defineDataFault({
  kind: 'schema_drift',
  description:
    'The answer has drifted from its declared shape: fields renamed or retyped, in a record or each record of a list.',
  settings: z.strictObject({
    rename: z.record(z.string(), z.string()).default({}).describe('Old field name → new field name.'),
    retype: z
      .record(z.string(), z.enum(['string', 'number']))
      .default({})
      .describe('Field (by its new name) → the type it now arrives as.'),
  }),
  apply(answer, { rename, retype }) {
    if (isObject(answer)) return drifted(answer, rename, retype);
    if (Array.isArray(answer) && answer.some(isObject))
      return answer.map((item) => (isObject(item) ? drifted(item, rename, retype) : item));
    return undefined;
  },
});
