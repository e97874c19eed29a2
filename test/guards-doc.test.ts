import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_GUARDS } from '../src/arms/arms.js';

/** A setting's value as the table writes it: arrays in brackets, strings bare. */
const shown = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map(shown).join(', ')}]` : value === null ? 'null' : String(value);

describe('docs/guards.md', () => {
  it("lists every built-in guard in arm order, with its descriptor's defaults and events", () => {
    const rows = readFileSync(new URL('../docs/guards.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    expect(rows).toEqual(
      BUILT_IN_GUARDS.map((descriptor) => {
        const settings = Object.entries(descriptor.defaults).map(([key, value]) => `${key}: ${shown(value)}`);
        const events = descriptor.events.map((event) => `\`${event}\``);
        return expect.stringMatching(
          new RegExp(
            `^\\| \`${descriptor.name}\` \\| \`[a-z-]+\\.ts\` \\| ${literal(settings.length === 0 ? '—' : `\`${settings.join(', ')}\``)} \\| ${literal(events.length === 0 ? '—' : events.join(', '))} \\|$`,
          ),
        );
      }),
    );
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
