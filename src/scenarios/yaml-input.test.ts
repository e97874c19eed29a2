import { describe, expect, it } from 'vitest';
import { MAX_NESTING, parseYamlInput, YamlInputError } from './yaml-input.js';

function refusal(text: string): string {
  try {
    parseYamlInput(text);
  } catch (error) {
    if (error instanceof YamlInputError) return error.message;
    throw error;
  }
  throw new Error('the text was accepted');
}

/** `depth` lists, one inside the other, in flow or block style. */
const flow = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const block = (depth: number) => `${Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}a:`).join('\n')} 1`;

describe('parseYamlInput', () => {
  it('reads YAML and JSON as yaml does', () => {
    expect(parseYamlInput('a: 1\nb: [x, { c: null }]\n')).toEqual({ a: 1, b: ['x', { c: null }] });
    expect(parseYamlInput('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseYamlInput('')).toBeNull();
  });

  it('refuses a repeated key with where it is, at any depth, and keeps keys of other maps apart', () => {
    expect(refusal('id: a\nx: { p: 1, q: 2 }\nid: b\n')).toBe(
      "Map keys must be unique; 'id' is repeated at line 3, column 1",
    );
    expect(refusal('a:\n  b: 1\n  c: { d: 1, d: 2 }\n')).toBe(
      "Map keys must be unique; 'd' is repeated at line 3, column 14",
    );
    expect(parseYamlInput('a: { k: 1 }\nb: { k: 2 }\n1: x\n"1": y\n')).toEqual({ a: { k: 1 }, b: { k: 2 }, 1: 'y' });
  });

  it('reports the first syntax error with where it is', () => {
    expect(refusal('a: [1, 2\nb: 3\n')).toMatch(/ at line \d+, column \d+$/);
    expect(refusal('a: 1\n---\nb: 2\n')).toBe('Source contains multiple documents at line 2, column 1');
  });

  it(`accepts ${MAX_NESTING} levels of nesting and refuses one more, in flow and block style`, () => {
    expect(parseYamlInput(flow(MAX_NESTING))).toBeDefined();
    expect(parseYamlInput(block(MAX_NESTING))).toBeDefined();
    expect(refusal(flow(MAX_NESTING + 1))).toMatch(/^maps and lists nested at most 64 deep/);
    expect(refusal(block(MAX_NESTING + 1))).toMatch(/^maps and lists nested at most 64 deep/);
  });

  it('refuses nesting millions deep at once, before yaml builds it recursively', () => {
    expect(refusal(flow(2_000_000))).toBe('maps and lists nested at most 64 deep; deeper at line 1, column 133');
    expect(refusal(`${'- '.repeat(2_000_000)}x`)).toMatch(/^maps and lists nested at most 64 deep; deeper at line 1/);
  });

  it('refuses values nested too deep through aliases, and values that contain themselves', () => {
    // Each line 30 deep as written; through the aliases the last one is 90 deep.
    const chain = `a: &a ${flow(30)}\nb: &b ${'['.repeat(29)}*a${']'.repeat(29)}\nc: ${'['.repeat(29)}*b${']'.repeat(29)}\n`;
    expect(refusal(chain)).toBe('maps and lists nested at most 64 deep (counting what aliases stand for)');
    expect(refusal('a: &x [1, *x]\n')).toBe('maps and lists nested at most 64 deep (counting what aliases stand for)');
  });

  it('reads a map of 40,000 keys', () => {
    // yaml's own duplicate check compared every key with every earlier one (quadratic); the
    // time this map takes is measured by `npm run bench:inputs`, not asserted on a loaded machine.
    const text = Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    expect(Object.keys(parseYamlInput(text) as object)).toHaveLength(40_000);
  });
});
