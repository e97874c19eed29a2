import { describe, expect, it } from 'vitest';
import { atPath, isReference, parseReference, referencesIn } from './references.js';

describe('parseReference', () => {
  it('reads a whole-result reference and a path into the result', () => {
    expect(parseReference('$fetch')).toEqual({ step: 'fetch', path: [] });
    expect(parseReference('$order.items.0.sku')).toEqual({ step: 'order', path: ['items', '0', 'sku'] });
  });

  it('refuses what is not a well-formed reference', () => {
    for (const text of ['$', '$Fetch', '$fetch.', '$fetch..a', 'fetch', '$fe tch'])
      expect(parseReference(text), text).toBeNull();
    expect(isReference('$anything')).toBe(true);
    expect(isReference('plain')).toBe(false);
    expect(isReference(3)).toBe(false);
  });
});

describe('atPath', () => {
  const value = { id: 'o_1', items: [{ sku: 'A' }, { sku: 'B' }], total: 0 };

  it('walks object keys and array indices', () => {
    expect(atPath(value, [])).toBe(value);
    expect(atPath(value, ['items', '1', 'sku'])).toBe('B');
    expect(atPath(value, ['total'])).toBe(0);
  });

  it('is undefined for a part the value does not have', () => {
    expect(atPath(value, ['customer'])).toBeUndefined();
    expect(atPath(value, ['items', '2', 'sku'])).toBeUndefined();
    expect(atPath(value, ['items', 'sku'])).toBeUndefined();
    expect(atPath(value, ['id', 'length'])).toBeUndefined();
    expect(atPath(value, ['toString'])).toBeUndefined();
  });
});

describe('referencesIn', () => {
  it('finds references at any depth, with their field paths', () => {
    const args = { key: 'k', value: { emails: ['$a.email', 'x', { nested: '$b' }] }, record: '$c' };
    expect(referencesIn(args, 'args')).toEqual([
      { field: 'args.value.emails.0', text: '$a.email' },
      { field: 'args.value.emails.2.nested', text: '$b' },
      { field: 'args.record', text: '$c' },
    ]);
    expect(referencesIn({ key: 'k' }, 'args')).toEqual([]);
  });
});
