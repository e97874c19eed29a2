import { describe, expect, it } from 'vitest';
import { resolveArms } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { loadScenarioSource } from '../sweep/scenario-source.js';
import type { AgentEvent } from '../loop/events.js';
import { trajectoryOfEvents } from './results-trajectories.js';
import { trajectoryOfMessages } from './trajectory-of-messages.js';
import type { Trajectory } from './trajectory.js';

/** Call turns as they are; text turns without their text (a timeline does not keep it). */
const shape = (trajectory: Trajectory) => trajectory.turns.map((turn) => ('calls' in turn ? turn : { text: '' }));

describe('trajectoryOfEvents', () => {
  it("reads from a run's timeline (traces.jsonl) the turns its transcript holds", async () => {
    const { scenario } = await loadScenarioSource('fetch-transform-write');
    const [arm] = resolveArms(['none']);
    for (const seed of [1, 2, 3, 4]) {
      const events: AgentEvent[] = [];
      const { result } = await runOne({
        sweepSeed: 0,
        scenario,
        arm: arm!,
        seed,
        onEvent: (event) => events.push(event),
      });
      expect(shape(trajectoryOfEvents('t', events))).toEqual(shape(trajectoryOfMessages('t', result.messages)));
    }
  });
});
