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

  it('the all preset is every guard of our all arm but the unhosted ones, each of those with a reason', () => {
    const all = armGuards('all');
    expect(namesOf(SESSION_PRESETS.all)).toEqual(all.filter((name) => !(name in UNHOSTED_GUARDS)));
    expect(Object.keys(UNHOSTED_GUARDS).every((name) => all.includes(name as (typeof all)[number]))).toBe(true);
  });
});
