import { describe, expect, it } from 'vitest';
import { answersForAnother, contractProblem, type OutputSchema } from './output-contract.js';

const USER: OutputSchema = {
  type: 'object',
  required: ['id', 'email'],
  properties: { id: { type: 'string' }, email: { type: 'string' }, visits: { type: 'integer' } },
};

describe('contractProblem', () => {
  it('names a missing, a retyped and a wrongly typed answer, and passes a good one', () => {
    expect(contractProblem(USER, { id: 'u_1', email: 'a@b.c', visits: 3 })).toBeNull();
    expect(contractProblem(USER, { id: 'u_1', email_address: 'a@b.c' })).toBe('email is missing');
    expect(contractProblem(USER, { id: 'u_1', email: 'a@b.c', visits: '3' })).toBe(
      'visits is a string, not an integer',
    );
    expect(contractProblem(USER, [])).toBe('the answer is an array, not an object');
    expect(contractProblem({ type: 'number' }, 3)).toBeNull();
  });

  it('reads into lists', () => {
    const list: OutputSchema = {
      type: 'object',
      properties: { orders: { type: 'array', items: { type: 'object', required: ['id'] } } },
    };
    expect(contractProblem(list, { orders: [{ id: 'o_1' }, { total: 3 }] })).toBe('orders[1].id is missing');
  });
});

describe('answersForAnother', () => {
  it("finds a record whose own identifier differs from the call's, by the same key or by id", () => {
    expect(answersForAnother({ order_id: 'o_1' }, { id: 'o_2' })).toEqual({ asked: 'o_1', got: 'o_2' });
    expect(answersForAnother({ order_id: 'o_1' }, { order_id: 'o_2', refund_id: 'rf_1' })).toEqual({
      asked: 'o_1',
      got: 'o_2',
    });
    expect(answersForAnother({ order_id: 'o_1' }, { order_id: 'o_1', refund_id: 'rf_1' })).toBeNull();
    expect(answersForAnother({ query: 'Ada Lovelace' }, { id: 'u_2' })).toBeNull();
    // A new ticket made for a user is not another user.
    expect(answersForAnother({ user_id: 'u_1042' }, { id: 't_1001' })).toBeNull();
  });
});
