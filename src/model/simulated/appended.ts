/**
 * `[...list, item]` at its exact size. A spread followed by one more element (or a copy
 * and a push) grows the copy the way an array grows when appended to, leaving room for
 * some sixteen more elements that never come: ~150 bytes instead of ~30 for the short id
 * and call lists the model's readings replace on every call and keep for a run. Filled
 * by index, so it is also faster than the spread.
 *
 * @example
 * appended(['toolu_1'], 'toolu_2') // ['toolu_1', 'toolu_2'], a new array
 */
export function appended<T>(list: readonly T[], item: T): T[] {
  const out = new Array<T>(list.length + 1);
  for (let i = 0; i < list.length; i++) out[i] = list[i]!;
  out[list.length] = item;
  return out;
}
