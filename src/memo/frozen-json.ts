/**
 * The value itself, frozen at every depth: safe to share, since a write to it throws.
 * Walked with a list rather than recursion, so a body nested deeper than the call stack
 * (which JSON.parse accepts) is frozen too instead of failing as if it were malformed.
 */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item !== 'object' || item === null) continue;
    for (const member of Array.isArray(item) ? item : Object.values(item as object)) pending.push(member);
    Object.freeze(item);
  }
  return value;
}
