import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineGuard, isGuardDescriptor } from './define-guard.js';

const capped = defineGuard({
  name: 'capped',
  settings: z.strictObject({
    limit: z.number().int().min(0).default(2),
    tools: z.array(z.string()).default(['search']),
  }),
  events: ['agent.repeat.blocked'],
  build: () => ({ name: 'capped' }),
});

describe('defineGuard', () => {
  it('gives a frozen descriptor with its defaults in schema order', () => {
    expect(capped.kind).toBe('spiralbench.guard');
    expect(Object.isFrozen(capped)).toBe(true);
    expect(JSON.stringify(capped.defaults)).toBe('{"limit":2,"tools":["search"]}');
    expect(capped.events).toEqual(['agent.repeat.blocked']);
  });

  it('reads settings strictly: an unknown key is an error, not a setting ignored', () => {
    const parsed = capped.settings.safeParse({ limit: 1, limt: 3 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/limt/);
  });

  it('refuses a setting without a default, naming it', () => {
    expect(() =>
      defineGuard({
        name: 'needy',
        settings: z.strictObject({ limit: z.number(), other: z.number().default(1) }),
        build: () => ({ name: 'needy' }),
      }),
    ).toThrow("defineGuard('needy'): every setting needs a default (limit)");
  });

  it('refuses settings named like the keys of an arm entry, and names that are not kebab-case', () => {
    expect(() =>
      defineGuard({
        name: 'odd',
        settings: z.strictObject({ module: z.string().default('') }),
        build: () => ({ name: 'odd' }),
      }),
    ).toThrow(/'module' names the entry itself/);
    expect(() => defineGuard({ name: 'No Caps', settings: z.strictObject({}), build: () => ({ name: 'x' }) })).toThrow(
      /not lower-case/,
    );
  });
});

describe('isGuardDescriptor', () => {
  it('recognises a descriptor by its shape, so one from another copy of spiralbench counts', () => {
    expect(isGuardDescriptor(capped)).toBe(true);
    expect(isGuardDescriptor({ ...capped })).toBe(true);
    expect(isGuardDescriptor({ ...capped, kind: 'spiralbench.tool' })).toBe(false);
    expect(isGuardDescriptor({ name: 'capped', build: () => ({ name: 'capped' }) })).toBe(false);
    expect(isGuardDescriptor(null)).toBe(false);
  });
});
