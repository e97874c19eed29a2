import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import './index.js';
import givesUp from '../../test/fixtures/agents/gives-up.js';
import straightThrough from '../../test/fixtures/agents/straight-through.js';
import { resolveSurviveOptions } from './survive-options.js';
import { failureOf as matcherFailure } from './matcher-failure.test-helpers.js';
import { defineAgent } from '../agents/define-agent.js';

const GIVES_UP = fileURLToPath(new URL('../../test/fixtures/agents/gives-up.ts', import.meta.url));
const SCENARIO = 'fetch-transform-write';

/** The message of a matcher that failed, or a failure of this test if it passed. */
const failureOf = async (assertion: Promise<void>): Promise<string> => (await matcherFailure(assertion)).message;

// Real sweeps of the reference scenario, its seeded faults included: the verdicts come from the world.
describe('toSurvive', () => {
  it('passes an agent that succeeds on every seed, and fails it under .not with its rate', async () => {
    await expect(straightThrough).toSurvive(SCENARIO, { seeds: 20 });
    const message = await failureOf(expect(straightThrough).not.toSurvive(SCENARIO, { seeds: 20 }));
    expect(message).toContain('expected agent:straight-through not to survive');
    expect(message).toContain(
      'fetch-transform-write: success 100.0% (95% Wilson interval 83.9%–100.0%, n = 20) ≥ minSuccess 90.0%',
    );
    expect(message).not.toContain('replay');
  });

  it('fails an agent that never succeeds: the rate, the first 10 failing seeds, why, and a replay command each', async () => {
    const message = await failureOf(
      expect(givesUp).toSurvive(SCENARIO, { seeds: 20, firstSeed: 5, module: new URL(`file://${GIVES_UP}`) }),
    );
    expect(message).toContain('expected agent:gives-up to survive');
    expect(message).toContain(
      'fetch-transform-write: success 0.0% (95% Wilson interval 0.0%–16.1%, n = 20) < minSuccess 90.0%',
    );
    expect(message).toContain('20 failing seeds, the first 10:');
    const seeds = [
      ...message.matchAll(/^ {2}seed (\d+): failure \(completed\) — nothing was written to the outbox$/gm),
    ];
    expect(seeds.map((match) => Number(match[1]))).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(message).toContain(
      'npx spiralbench replay --scenario fetch-transform-write --arm agent:gives-up --seed 5 --agent ./test/fixtures/agents/gives-up.ts',
    );
    expect(message.match(/npx spiralbench replay/g)).toHaveLength(10);
  });

  it('passes under .not an agent that never succeeds, and a lower bar lets a mixed one through', async () => {
    await expect(givesUp).not.toSurvive([SCENARIO, 'search-thrash'], { seeds: 5 });
    await expect(givesUp).toSurvive(SCENARIO, { seeds: 5, minSuccess: 0 });
  });

  it('runs an agent given by its module path and names that path in the replay commands', async () => {
    const message = await failureOf(expect(GIVES_UP).toSurvive(SCENARIO, { seeds: 4 }));
    expect(message).toContain('--seed 4 --agent ./test/fixtures/agents/gives-up.ts');
  });

  it('says how to get replay commands when the agent object has no module', async () => {
    const message = await failureOf(expect(givesUp).toSurvive(SCENARIO, { seeds: 3 }));
    expect(message).toContain('seed 3: failure');
    expect(message).not.toContain('npx spiralbench replay');
    expect(message).toContain('replay commands need the agent module: give its path');
  });

  it('refuses what is not an agent, and a bad option, naming it', async () => {
    await expect(expect(42).toSurvive(SCENARIO)).rejects.toThrow(/an agent made with defineAgent/);
    expect(() => resolveSurviveOptions({ minSuccess: 90 })).toThrow(/minSuccess.*a rate from 0 to 1; got 90/);
    expect(() => resolveSurviveOptions({ seeds: 0 })).toThrow(/seeds.*at least 1/);
    expect(() => resolveSurviveOptions({ minSucess: 0.99 } as never)).toThrow(
      /minSucess: one of the options .*; 'minSucess' is none \(did you mean 'minSuccess'\?\)/,
    );
  });
});

describe('toSurvive and an agent that ends the process', () => {
  it('fails however many runs cleared the bar, naming the run that called process.exit', async () => {
    let runs = 0;
    const quitter = defineAgent({
      name: 'quitter',
      run: async () => {
        runs += 1;
        if (runs === 5) process.exit(0);
        return 'done';
      },
    });
    const message = await failureOf(expect(quitter).toSurvive(SCENARIO, { seeds: 20, minSuccess: 0 }));
    expect(message).toMatch(
      /^user code called process\.exit\(0\) in arm agent:quitter, scenario fetch-transform-write, seed 5; the sweep did not finish/,
    );
  });
});
