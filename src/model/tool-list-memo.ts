import type { ModelRequest } from './model-client.js';

type ToolList = NonNullable<ModelRequest['tools']>;

/**
 * A reading of a request's tool list, remembered per list. The loop sends the same tool
 * list object on every call of a run, so the reading (names offered, duplicates) is made
 * once a run instead of once a call. A remembered reading is used only while the list
 * still holds the same tool objects, so a list edited in place is read again.
 */
export function memoByToolList<T>(read: (tools: ToolList) => T): (tools: ToolList) => T {
  const memo = new WeakMap<ToolList, { readonly tools: ToolList; readonly value: T }>();
  return (tools) => {
    const known = memo.get(tools);
    if (known !== undefined && sameTools(known.tools, tools)) return known.value;
    const value = read(tools);
    memo.set(tools, { tools: [...tools], value });
    return value;
  };
}

function sameTools(a: ToolList, b: ToolList): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
