/*
 * Readings of JSON values remembered by the value's identity, for values frozen at every
 * depth: such a value can never change (freezing cannot be undone), so neither can a pure
 * reading of it. The hot path passes the same few frozen values around all sweep long: a
 * scenario's starting records (shared by its runs) and the remembered parses of tool
 * bodies (`tryParseJson`). Entries live as long as their value does (a WeakMap).
 */

/** Objects found frozen at every depth; a frozen object's members cannot be replaced, so this never goes stale. */
const deeplyFrozen = new WeakSet<object>();

/** Whether a JSON value is frozen at every depth (plain data: no getters, no toJSON). */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (deeplyFrozen.has(value)) return true;
  if (!Object.isFrozen(value)) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (!isDeepFrozen(item)) return false;
  deeplyFrozen.add(value);
  return true;
}

/**
 * `read` remembered per deep-frozen object; other values are read afresh every time.
 * What a reading returns is shared by every caller, so it must not be changed.
 *
 * @example
 * const jsonText = frozenMemo((value) => JSON.stringify(value));
 */
export function frozenMemo<T>(read: (value: object) => T): (value: object) => T {
  const known = new WeakMap<object, T>();
  return (value) => {
    // isFrozen first: the common unfrozen value costs one check, not a WeakMap lookup.
    if (!Object.isFrozen(value)) return read(value);
    const hit = known.get(value);
    if (hit !== undefined) return hit;
    const reading = read(value);
    if (isDeepFrozen(value)) known.set(value, reading);
    return reading;
  };
}
