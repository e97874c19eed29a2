import { z } from 'zod';
import { defineDataFault, isObject } from './define-data-fault.js';
import type { Json } from '../../tools/world.js';

/**
 * A list cut short: the first `keep` items, as a page that looks complete. With `cursor`,
 * the answer says there is more (`has_more: true`, a `next_cursor`), as a paginated API
 * does; without it, nothing in the answer tells the reader items are missing.
 */
export const truncatedPage = defineDataFault({
  kind: 'truncated_page',
  description: 'A list comes back cut short (the first `keep` items), with or without a cursor saying there is more.',
  settings: z.strictObject({
    keep: z.number().int().min(0).default(1).describe('How many items the page keeps.'),
    cursor: z.boolean().default(false).describe('Whether the answer says there is more (has_more, next_cursor).'),
  }),
  apply(answer, { keep, cursor }) {
    if (Array.isArray(answer)) {
      if (answer.length <= keep) return undefined;
      return cursor
        ? { items: answer.slice(0, keep), has_more: true, next_cursor: `page:${keep}` }
        : answer.slice(0, keep);
    }
    if (!isObject(answer)) return undefined;
    // The record's longest list is the page (a record holds its items beside counts and ids).
    let field: string | undefined;
    for (const [key, value] of Object.entries(answer))
      if (
        Array.isArray(value) &&
        value.length > keep &&
        (field === undefined || value.length > (answer[field] as Json[]).length)
      )
        field = key;
    if (field === undefined) return undefined;
    const page: { [key: string]: Json } = { ...answer, [field]: (answer[field] as Json[]).slice(0, keep) };
    if (cursor) Object.assign(page, { has_more: true, next_cursor: `page:${keep}` });
    return page;
  },
});
