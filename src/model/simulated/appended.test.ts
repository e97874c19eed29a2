import { describe, expect, it } from 'vitest';
import { appended } from './appended.js';

describe('appended', () => {
  it('is a new array with the item after the list, the list unchanged', () => {
    const list = Object.freeze(['a', 'b']);
    const out = appended(list, 'c');
    expect(out).toEqual(['a', 'b', 'c']);
    expect(out).not.toBe(list);
    expect(list).toEqual(['a', 'b']);
    expect(appended([], 1)).toEqual([1]);
    // No holes: every index is an own element, as in a spread.
    expect(Object.keys(appended([undefined], undefined))).toEqual(['0', '1']);
  });
});
