import type { Json } from './world.js';

/** The value itself, frozen at every depth: safe to share, since a write to it throws. */
export function deepFreeze<T extends Json>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const item of Array.isArray(value) ? value : Object.values(value)) deepFreeze(item);
  return Object.freeze(value);
}
