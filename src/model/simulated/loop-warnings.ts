/**
 * A loop warning in the words the harness added to the last message, if any: a nudge to
 * try something else, or a directive to stop calling one tool. Read from the text alone,
 * as a model would; the loop-detection guard's wording is one such text (a test holds the
 * two together).
 */
export type LoopWarning = { readonly kind: 'nudge' } | { readonly kind: 'directive'; readonly tool: string };

const NUDGE_CUE = 'try a different tool or a different approach';
const DIRECTIVE_CUE = /\bstop calling ([A-Za-z0-9_-]+)/i;

export function loopWarning(text: string): LoopWarning | null {
  const directive = DIRECTIVE_CUE.exec(text);
  if (directive?.[1] !== undefined) return { kind: 'directive', tool: directive[1] };
  return text.toLowerCase().includes(NUDGE_CUE) ? { kind: 'nudge' } : null;
}
