import type { ModelRequest } from './model-client.js';

type ToolList = NonNullable<ModelRequest['tools']>;

/**
 * A reading of a request's tool list (names offered, duplicates), remembered for the
 * last list read. Every call of a run, and every run of a scenario and arm, offers the
 * same tool objects (the catalogue's definitions and the guards' own tools), though each
 * run builds its own list: the reading is reused whenever the list holds the same tool
 * objects in the same order, whatever the array, so it is made about once a sweep.
 */
export function memoByToolList<T>(read: (tools: ToolList) => T): (tools: ToolList) => T {
  let last: { readonly tools: ToolList; readonly value: T } | null = null;
  return (tools) => {
    if (last !== null && sameTools(last.tools, tools)) return last.value;
    const value = read(tools);
    last = { tools: [...tools], value };
    return value;
  };
}

function sameTools(a: ToolList, b: ToolList): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
