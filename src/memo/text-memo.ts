/**
 * A pure function of a string, remembered by that string, holding at most `maxChars`
 * characters of keys (then it starts afresh); a text longer than a sixteenth of that is
 * read every time, never kept. For the hot path's repeated readings of the same texts: a
 * run repeats its calls and tool bodies, and a sweep its runs. The readings are not
 * counted, so a reading should be no bigger than its text (a parse, a digest, a verdict);
 * each worker thread holds its own. What a reading returns is shared by every caller, so
 * it must not be changed.
 *
 * @example
 * const digest = textMemo((text) => sha256Hex(text), 1_000_000);
 */
export function textMemo<T>(read: (text: string) => T, maxChars: number): (text: string) => T {
  const known = new Map<string, T>();
  let chars = 0;
  return (text) => {
    const hit = known.get(text);
    if (hit !== undefined || known.has(text)) return hit as T;
    const value = read(text);
    if (text.length > maxChars / 16) return value;
    if (chars + text.length > maxChars) {
      known.clear();
      chars = 0;
    }
    known.set(text, value);
    chars += text.length;
    return value;
  };
}
