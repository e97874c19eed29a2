import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios/loader.js';
import { parallelSteps } from './parallel-steps.js';

describe('parallelSteps', () => {
  it('groups reads that need nothing from each other, up to the limit, and stops at the write that needs them', () => {
    const { steps } = loadScenario('research-8-sources').plan;
    expect(parallelSteps(steps, 0, 4)).toEqual([0, 1, 2, 3]);
    expect(parallelSteps(steps, 6, 4)).toEqual([6, 7]);
    expect(parallelSteps(steps, 8, 4)).toEqual([8]);
    expect(parallelSteps(steps, 0, 1)).toEqual([0]);
  });

  it('hands out the worked-out batches of a plan frozen, as every call shares them', () => {
    const { steps } = loadScenario('research-8-sources').plan;
    const batch = parallelSteps(steps, 6, 4);
    expect(Object.isFrozen(batch)).toBe(true);
    expect(() => (batch as number[]).push(9)).toThrow(TypeError);
    expect(parallelSteps(steps, 6, 4)).toEqual([6, 7]);
  });

  it('never groups a chain of steps that each need the one before', () => {
    const { steps } = loadScenario('fetch-transform-write').plan;
    expect([0, 1, 2].map((from) => parallelSteps(steps, from, 4))).toEqual([[0], [1], [2]]);
  });
});
