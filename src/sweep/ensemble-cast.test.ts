import { describe, expect, it } from 'vitest';
import { loadPersona } from '../scenarios/loader.js';
import { ensembleCast, memberFor } from './ensemble-cast.js';
import { resolveScenarioSource } from './scenario-source.js';

const { persona } = loadPersona('default');
const members = [0.5, 0.7, 0.9].map((persistence, i) => ({
  ...persona,
  id: `member-${i}`,
  detour: { ...persona.detour, persistence },
}));

describe('ensembleCast', () => {
  it('plays a scenario that uses the default persona once per member, the rest of it unchanged', () => {
    const { scenario, texts } = resolveScenarioSource('fetch-transform-write');
    const cast = ensembleCast(scenario, texts, members)!;
    expect(cast.map((played) => played.persona)).toEqual(members);
    expect(cast.every((played) => played.plan === scenario.plan && played.hash === scenario.hash)).toBe(true);
    expect(Object.isFrozen(cast)).toBe(true);
  });

  it('leaves a scenario with a persona of its own to that persona, and every scenario without an ensemble', () => {
    const stubborn = resolveScenarioSource('fetch-transform-write-stubborn');
    expect(ensembleCast(stubborn.scenario, stubborn.texts, members)).toBeUndefined();
    const reference = resolveScenarioSource('fetch-transform-write');
    expect(ensembleCast(reference.scenario, reference.texts, undefined)).toBeUndefined();
  });
});

describe('memberFor', () => {
  it('meets members in turn from the first seed, whatever the arm', () => {
    expect([1, 2, 3, 4, 5, 41].map((seed) => memberFor(seed, 1, 40))).toEqual([0, 1, 2, 3, 4, 0]);
    expect([100, 101, 102, 103].map((seed) => memberFor(seed, 100, 3))).toEqual([0, 1, 2, 0]);
  });

  it('wraps a seed below the base around, as replay meets seed 0 with its default base of 1', () => {
    expect([0, -39].map((seed) => memberFor(seed, 1, 40))).toEqual([39, 0]);
  });
});
