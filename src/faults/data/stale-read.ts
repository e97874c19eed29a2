import { z } from 'zod';
import { defineDataFault, isObject } from './define-data-fault.js';

/**
 * A read returns an older version of the record: the fields a later write changed carry
 * their earlier values (a replica behind its primary, a cache not yet invalidated).
 */
export const staleRead = defineDataFault({
  kind: 'stale_read',
  description: 'The answer is an older version of the record: the given fields carry their earlier values.',
  settings: z.strictObject({
    fields: z
      .record(z.string(), z.json())
      .describe('The earlier values of the fields that changed since, e.g. { on_hand: 42, updated_at: "2026-11-01" }.'),
  }),
  apply(answer, { fields }) {
    return isObject(answer) ? { ...answer, ...fields } : undefined;
  },
});
