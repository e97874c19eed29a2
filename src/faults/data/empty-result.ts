import { z } from 'zod';
import { defineDataFault, isObject } from './define-data-fault.js';
import type { Json } from '../../tools/world.js';

/**
 * Where there is data, the answer holds none: a list comes back empty, a record's lists
 * come back empty, a record without lists comes back as `{}`. HTTP 200, no error words.
 */
export const emptyResult = defineDataFault({
  kind: 'empty_result',
  description:
    'The answer is empty where there is data: [] for a list, empty lists in a record, {} for a plain record.',
  settings: z.strictObject({}),
  apply(answer) {
    if (Array.isArray(answer)) return [];
    if (!isObject(answer)) return undefined;
    const lists = Object.keys(answer).filter((key) => Array.isArray(answer[key]));
    if (lists.length === 0) return {};
    const emptied: { [key: string]: Json } = { ...answer };
    for (const key of lists) emptied[key] = [];
    return emptied;
  },
});
