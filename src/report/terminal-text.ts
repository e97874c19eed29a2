/** Layout characters a caller may keep: a newline between lines, a tab inside one. */
export interface KeptLayout {
  /** @default false */
  readonly newline?: boolean;
  /** @default false */
  readonly tab?: boolean;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from a scenario, a model, a results file or the command line, made safe for a
 * terminal: every C0 and C1 control character becomes a visible escape such as `\x1b`,
 * so the text can neither recolour nor retitle the terminal, move its cursor, nor
 * overwrite what was printed (a bare CR). Newline and tab stay only where the caller's
 * layout needs them.
 *
 * @example
 * escapeControl('ok\u001b[2J') // 'ok\\x1b[2J'
 */
export function escapeControl(text: string, keep: KeptLayout = {}): string {
  return text.replace(CONTROL, (char) =>
    (char === '\n' && keep.newline === true) || (char === '\t' && keep.tab === true)
      ? char
      : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
