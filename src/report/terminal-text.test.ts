import { describe, expect, it } from 'vitest';
import { escapeControl } from './terminal-text.js';

describe('escapeControl', () => {
  it('turns C0, DEL and C1 control characters into visible escapes', () => {
    expect(escapeControl('\u001b]0;title\u0007\u001b[2J\r\u0000\u007f\u009b31m')).toBe(
      '\\x1b]0;title\\x07\\x1b[2J\\x0d\\x00\\x7f\\x9b31m',
    );
  });

  it('escapes newline and tab unless the layout keeps them', () => {
    expect(escapeControl('a\nb\tc')).toBe('a\\x0ab\\x09c');
    expect(escapeControl('a\nb\tc', { newline: true })).toBe('a\nb\\x09c');
    expect(escapeControl('a\nb\tc', { newline: true, tab: true })).toBe('a\nb\tc');
  });

  it('leaves printable text alone, whatever its script', () => {
    const text = 'fetch · 12.5 € — 日本語 ✋ \u00a0 \\x1b';
    expect(escapeControl(text)).toBe(text);
  });
});
