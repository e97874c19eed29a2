// Our agent gated like any other unit: each `toSurvive` runs it over seeded runs of a
// scenario (seeded model, seeded tool faults, virtual time) and fails with the failing
// seeds and the command that replays each one.
import 'spiralbench/vitest';
import { describe, expect, it } from 'vitest';
import agent from '../src/agent.js';

// Fifty seeded runs take a few seconds; more than vitest's 5 s default on a busy CI machine.
const SWEEP_TIMEOUT = 60_000;

describe('our agent', () => {
  // The bars are what we accept today (see the README for how we chose them): a change
  // that costs success fails here, with the seeds it broke.
  it(
    'survives our own scenario, with our own tool failing',
    async () => {
      await expect('./src/agent.ts').toSurvive('scenarios/profile-export.yaml', { seeds: 50, minSuccess: 0.75 });
    },
    SWEEP_TIMEOUT,
  );

  it(
    "survives spiralbench's reference scenario",
    async () => {
      // Given as an object, the agent needs its module named for the failure's replay commands.
      await expect(agent).toSurvive('fetch-transform-write', {
        seeds: 50,
        minSuccess: 0.5,
        module: new URL('../src/agent.ts', import.meta.url),
      });
    },
    SWEEP_TIMEOUT,
  );
});
