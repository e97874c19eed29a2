import { describe, expect, it } from 'vitest';
import { tryParseJson } from '../scenarios/parse-json.js';
import { toolResultText } from './tool-result-text.js';

describe('toolResultText', () => {
  it('keeps JSON and cut-off JSON as they are, quotes plain text, stringifies values', () => {
    expect(toolResultText('{"id":1}')).toBe('{"id":1}');
    expect(toolResultText('  [1, 2')).toBe('  [1, 2');
    expect(toolResultText('It is sunny in Paris.')).toBe('"It is sunny in Paris."');
    expect(toolResultText('42')).toBe('42');
    expect(toolResultText({ id: 1 })).toBe('{"id":1}');
    expect(toolResultText(undefined)).toBe('null');
  });

  it('gives the guards a text that parses unless it starts like JSON and is cut off', () => {
    for (const text of ['Email sent.', 'ok', '', 'a { b', '"quoted"', 'null'])
      expect(tryParseJson(toolResultText(text)).ok).toBe(true);
    for (const text of ['{"id": 1', '[{"a":', ' {']) expect(tryParseJson(toolResultText(text)).ok).toBe(false);
  });
});
