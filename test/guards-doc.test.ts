import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GUARD_REGISTRY } from '../src/loop/guards/index.js';

/** A setting's value as the table writes it: arrays in brackets, strings bare. */
const shown = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(shown).join(', ')}]` : value === null ? 'null' : String(value);

/** A guard's module, from its name in code: `orderingFixup` → `ordering-fixup`. */
const moduleOf = (code: string) => code.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe('the guard registry', () => {
  it.each(GUARD_REGISTRY.map((entry) => [entry.code, entry] as const))(
    '%s has one name in code: its module, its factory and its descriptor',
    async (code, entry) => {
      const module = (await import(`../src/loop/guards/${moduleOf(code)}.ts`)) as Record<string, unknown>;
      expect(module[`${code}Guard`]).toBe(entry.descriptor);
      expect(typeof module[code]).toBe('function');
    },
  );

  it('gives every guard its own arm name and its own name in code', () => {
    const arms = GUARD_REGISTRY.map((entry) => entry.descriptor.name);
    const codes = GUARD_REGISTRY.map((entry) => entry.code);
    expect(new Set(arms).size).toBe(arms.length);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('docs/guards.md', () => {
  it("lists every built-in guard in the registry's order, with its module, middleware option, defaults and events", () => {
    const rows = readFileSync(new URL('../docs/guards.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    expect(rows).toEqual(
      GUARD_REGISTRY.map((entry) => {
        const { descriptor } = entry;
        const settings = Object.entries(descriptor.defaults).map(([key, value]) => `${key}: ${shown(value)}`);
        const events = descriptor.events.map((event) => `\`${event}\``);
        const option = 'unhosted' in entry ? '—' : `\`${entry.code}\``;
        return [
          `\`${descriptor.name}\``,
          `\`${moduleOf(entry.code)}.ts\``,
          option,
          settings.length === 0 ? '—' : `\`${settings.join(', ')}\``,
          events.length === 0 ? '—' : events.join(', '),
        ]
          .join(' | ')
          .replace(/^/, '| ')
          .concat(' |');
      }),
    );
  });
});
