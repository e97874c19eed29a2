import { describe, expect, it } from 'vitest';
import { ARM_PRESETS } from '../arms/arms.js';
import { HOSTED_GUARDS, SESSION_PRESETS, UNHOSTED_GUARDS } from './hosted-guards.js';

const namesOf = (options: readonly (keyof typeof HOSTED_GUARDS)[]) =>
  options.map((option) => HOSTED_GUARDS[option].name);
const armGuards = (arm: string) => ARM_PRESETS.get(arm)!.guards.map((setting) => setting.guard);

describe('hosted guards', () => {
  it("the article preset is our article arm's guards, in its order", () => {
    expect(namesOf(SESSION_PRESETS.article)).toEqual(armGuards('article'));
  });

  it('the all preset is every guard of our all arm but the unhosted ones, in its order; each unhosted one has a reason', () => {
    // Pinned, not derived: both lists are read from the one guard registry, so only a list
    // written out here notices a guard that changed sides or place.
    expect(namesOf(SESSION_PRESETS.all)).toEqual([
      'recover',
      'trust',
      'contracts',
      'stuck',
      'budget',
      'repeat',
      'classify',
      'loops',
      'iterations',
      'time',
      'journal',
      'detect',
    ]);
    expect(Object.keys(UNHOSTED_GUARDS)).toEqual([
      'rollback',
      'compact',
      'output',
      'fixup',
      'filter',
      'verify',
      'concurrency',
      'repair',
      'isolate',
    ]);
    expect(Object.values(UNHOSTED_GUARDS).every((why) => why.length > 20)).toBe(true);
    const all = armGuards('all');
    expect([...namesOf(SESSION_PRESETS.all), ...Object.keys(UNHOSTED_GUARDS)].sort()).toEqual([...all].sort());
  });
});
