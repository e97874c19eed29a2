import { describe, expect, it } from 'vitest';
import { ARM_PRESETS } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import type { AgentEvent } from '../src/loop/events.js';
import { loadScenario } from '../src/scenarios/loader.js';
import { loadEnsemble } from '../src/scenarios/persona-ensemble.js';

/**
 * The refusal trap: a call the repeat guard refused, sent again because the model's "other
 * form" of it was the same call (a step with one variant), refused again, for the rest of
 * the run. Seed 34 of `-a repeat --ensemble default` on the reference scenario once made 247
 * refusals in 250 calls. The model now never sends the call just refused unless its persona
 * draws a re-send (`reflection.resend_blocked`), less likely with each refusal in a row.
 */
const scenario = loadScenario('fetch-transform-write');
const repeat = ARM_PRESETS.get('repeat')!;
const { members } = loadEnsemble('default');

/** The longest run of refused calls in a row in one run of the repeat arm. */
async function longestRefusalRun(seed: number): Promise<number> {
  const member = (seed - 1) % members.length;
  let inARow = 0;
  let longest = 0;
  let refused = false;
  await runOne({
    sweepSeed: 0,
    scenario: { ...scenario, persona: members[member]! },
    arm: repeat,
    seed,
    member,
    onEvent(event: AgentEvent) {
      if (event.type === 'agent.tool.call') {
        // A call that ran breaks the row; the call event comes before the guard's refusal.
        if (!refused) inARow = 0;
        refused = false;
      } else if (event.type === 'agent.repeat.blocked') {
        refused = true;
        longest = Math.max(longest, ++inARow);
      }
    },
  });
  return longest;
}

describe('after a refusal', () => {
  it('seed 34 no longer sends the refused call for the rest of the run', async () => {
    expect(await longestRefusalRun(34)).toBeLessThan(10);
  });

  it('no run of 300 seeds has 10 refusals in a row', async () => {
    let worst = 0;
    for (let seed = 1; seed <= 300; seed++) worst = Math.max(worst, await longestRefusalRun(seed));
    expect(worst).toBeLessThan(10);
    // The guard still refuses: the test would pass vacuously on a run without refusals.
    expect(worst).toBeGreaterThan(0);
  });
});
