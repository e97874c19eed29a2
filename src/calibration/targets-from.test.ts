import { describe, expect, it } from 'vitest';
import { finishedFolder, fixtureRun } from '../results/sweep-fixture.test-helpers.js';
import { targetsFrom } from './targets-from.js';

/** A folder of `arms`, ten successful runs each of scenario s1. */
function folder(arms: readonly string[]): string {
  return finishedFolder(arms.flatMap((arm) => Array.from({ length: 10 }, (_, i) => fixtureRun({ arm, seed: i + 1 }))));
}

const problem = (work: Promise<unknown>) =>
  work.then(
    () => 'no problem',
    (error: Error) => error.message,
  );

describe('targetsFrom a results folder: which arm is the agent without safeguards', () => {
  it('arm none; else the one agent arm of a served or --agent sweep; else the arm named', async () => {
    expect((await targetsFrom(folder(['none', 'article']), 's1')).described).toMatch(/^arm none of s1 in /);
    expect((await targetsFrom(folder(['agent:served']), 's1')).described).toMatch(/^arm agent:served of s1 in /);
    expect((await targetsFrom(folder(['article', 'agent:mine']), 's1', undefined, 'agent:mine')).described).toMatch(
      /^arm agent:mine of s1 in /,
    );
  });

  it('refuses a folder with neither, and an arm it does not hold, saying what to name', async () => {
    expect(await problem(targetsFrom(folder(['article', 'agent:mine']), 's1'))).toMatch(
      /a sweep with arm none .*, or one agent arm; .* has article, agent:mine \(name one with --from-arm\)$/,
    );
    expect(await problem(targetsFrom(folder(['article', 'agent:mine']), 's1', undefined, 'agent:mien'))).toMatch(
      /^--from-arm: .*an arm of .* \(article, agent:mine\) \(did you mean 'agent:mine'\?\)$/,
    );
  });
});
