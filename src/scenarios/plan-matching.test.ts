import { describe, expect, it } from 'vitest';
import { argumentsMatch, sharedTools, stepServed } from './plan-matching.js';
import type { PlanStep } from './schema.js';

const step = (
  id: string,
  tool: string,
  args: Record<string, unknown>,
  variants: Array<Record<string, unknown>> = [],
  alternatives: PlanStep['alternatives'] = [],
): PlanStep => ({ id, tool, args, variants, alternatives }) as PlanStep;

const STEPS: PlanStep[] = [
  step('a', 'get_order', { order_id: 'o_1' }, [{ order_id: 'o_1', fields: 'all' }]),
  step('b', 'get_order', { order_id: 'o_2' }),
  step('t', 'transform', { record: '$a' }),
  step('w', 'write', { key: 'k', value: { orders: ['$a', '$b'] } }),
];

describe('plan matching', () => {
  it('marks the steps that share a tool', () => {
    expect(sharedTools(STEPS)).toEqual([true, true, false, false]);
  });

  it('matches arguments on every literal of the step or of a variant, ignoring references', () => {
    expect(argumentsMatch(STEPS[0]!, { order_id: 'o_1' })).toBe(true);
    expect(argumentsMatch(STEPS[0]!, { order_id: 'o_1', fields: 'all' })).toBe(true);
    expect(argumentsMatch(STEPS[0]!, { order_id: 'o_2' })).toBe(false);
    expect(argumentsMatch(STEPS[3]!, { key: 'k', value: { orders: [] } })).toBe(true);
    expect(argumentsMatch(STEPS[3]!, { key: 'other', value: {} })).toBe(false);
  });

  it('reads a call of a shared tool by its arguments, and any call of a step-unique tool as that step', () => {
    expect(stepServed(STEPS, 0, 'get_order', { order_id: 'o_2' })).toBe(1);
    expect(stepServed(STEPS, 0, 'get_order', { order_id: 'o_1' })).toBe(0);
    // Step a is done: a re-read of o_1 serves no remaining step.
    expect(stepServed(STEPS, 1, 'get_order', { order_id: 'o_1' })).toBe(-1);
    expect(stepServed(STEPS, 0, 'get_order', { order_id: 'o_3' })).toBe(-1);
    expect(stepServed(STEPS, 0, 'transform', { record: { anything: true } })).toBe(2);
    expect(stepServed(STEPS, 3, 'transform', {})).toBe(-1);
    expect(stepServed(STEPS, 0, 'search', {})).toBe(-1);
  });

  it("reads a call of a step's alternative tool, with its literal arguments, as that step", () => {
    const steps = [
      step('find', 'search', { query: 'q' }, [], [{ tool: 'list_orders', args: { customer_id: 'c_77', after: '$x' } }]),
      step('answer', 'submit', { answer: '$find' }),
    ];
    expect(stepServed(steps, 0, 'list_orders', { customer_id: 'c_77', after: 'anything' })).toBe(0);
    expect(stepServed(steps, 0, 'list_orders', { customer_id: 'c_81' })).toBe(-1);
    expect(stepServed(steps, 1, 'list_orders', { customer_id: 'c_77' })).toBe(-1);
  });
});
