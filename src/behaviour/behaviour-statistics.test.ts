import { describe, expect, it } from 'vitest';
import {
  addTally,
  behaviourStatistics,
  emptyTally,
  statisticsOfTally,
  tallyTrajectory,
} from './behaviour-statistics.js';
import type { ToolCall, Trajectory, Turn } from './trajectory.js';

const ok = (text = '{"ok":true}') => ({ text });
const err = (text: string) => ({ text, is_error: true });
const call = (name: string, input: Record<string, unknown>, result: ToolCall['result']): Turn => ({
  calls: [{ name, input, result }],
});

// Turn by turn, with what each turn's successor does:
//  1 get_user{a}  good       → 2 identical                         (good: identical)
//  2 get_user{a}  timeout    → 3 same tool other args              (transient: same_tool_other_args)
//  3 get_user{b}  401        → 4 other tool                        (permanent, no advice: other_tool)
//  4 list{}       404+advice → 5 identical                         (permanent, advice: identical)
//  5 list{}       good       → 6 text                              (good: stop_or_help)
//  6 text                    → 7
//  7 write{x}     {"a":      → 8 help tool                         (malformed: stop_or_help)
//  8 ask_human    good       → end                                 (not counted)
const first: Trajectory = {
  id: 'first',
  turns: [
    call('get_user', { id: 'a' }, ok()),
    call('get_user', { id: 'a' }, err('Error: get_user: request timed out after 10000 ms')),
    call('get_user', { id: 'b' }, err('HTTP 401 Unauthorized')),
    call('list', {}, err('Error: Permanent failure: not found (HTTP 404). Do not retry with the same arguments.')),
    call('list', {}, ok()),
    { text: 'Let me write it.' },
    call('write', { x: 1 }, ok('{"a":')),
    call('ask_human', { question: 'help?' }, ok('a person will answer')),
  ],
};

// Two calls in one turn: the turn's LAST call is compared with the next turn's FIRST.
//  1 [a{1} good, b{2} refusal] → 2 b{2}: identical (refusal)
//  2 b{2} 401                  → 3 b{3}: same tool other args (permanent, no advice)
//  3 b{3} unanswered           → end
const second: Trajectory = {
  id: 'second',
  turns: [
    {
      calls: [
        { name: 'a', input: { n: 1 }, result: ok() },
        { name: 'b', input: { n: 2 }, result: err('Tool budget exhausted: the call was not run.') },
      ],
    },
    call('b', { n: 2 }, err('HTTP 401 Unauthorized')),
    call('b', { n: 3 }, null),
  ],
};

describe('behaviourStatistics', () => {
  const stats = behaviourStatistics([first, second]);

  it('counts calls and the identical consecutive pairs among them', () => {
    // first: 7 calls, pairs (1,2) and (4,5); second: 4 calls, pair (b2,b2).
    expect(stats.calls).toBe(11);
    expect(stats.identical_consecutive).toBeCloseTo(3 / 11, 12);
  });

  it('shares the next action after each kind of result, leaving out last turns and unanswered calls', () => {
    expect(stats.after.good).toEqual({
      n: 2,
      identical: 0.5,
      same_tool_other_args: 0,
      other_tool: 0,
      stop_or_help: 0.5,
    });
    expect(stats.after.transient).toEqual({
      n: 1,
      identical: 0,
      same_tool_other_args: 1,
      other_tool: 0,
      stop_or_help: 0,
    });
    expect(stats.after.permanent).toEqual({
      n: 3,
      identical: 1 / 3,
      same_tool_other_args: 1 / 3,
      other_tool: 1 / 3,
      stop_or_help: 0,
    });
    expect(stats.after.malformed).toEqual({
      n: 1,
      identical: 0,
      same_tool_other_args: 0,
      other_tool: 0,
      stop_or_help: 1,
    });
    expect(stats.after.refusal).toEqual({
      n: 1,
      identical: 1,
      same_tool_other_args: 0,
      other_tool: 0,
      stop_or_help: 0,
    });
    expect(stats.after.error).toEqual({
      n: 0,
      identical: null,
      same_tool_other_args: null,
      other_tool: null,
      stop_or_help: null,
    });
  });

  it("splits identical retries after a permanent error by the error's advice", () => {
    expect(stats.hint_effect).toEqual({
      with_advice: { n: 1, identical: 1 },
      without_advice: { n: 2, identical: 0 },
      cut: null,
    });
    const advised = (retried: boolean): Trajectory => ({
      id: 'h',
      turns: [
        call('g', { id: 1 }, err('Error: not found. Do not retry with the same arguments.')),
        call('g', { id: retried ? 1 : 2 }, ok()),
      ],
    });
    const raw = (retried: boolean): Trajectory => ({
      id: 'r',
      turns: [call('g', { id: 1 }, err('Error: not found')), call('g', { id: retried ? 1 : 2 }, ok())],
    });
    // With advice: 1 identical of 4; without: 2 of 4. Cut: 1 - 0.25/0.5.
    const hinted = behaviourStatistics([
      advised(true),
      advised(false),
      advised(false),
      advised(false),
      raw(true),
      raw(true),
      raw(false),
      raw(false),
    ]);
    expect(hinted.hint_effect).toEqual({
      with_advice: { n: 4, identical: 0.25 },
      without_advice: { n: 4, identical: 0.5 },
      cut: 0.5,
    });
  });

  it('counts runs over 50 calls and those holding a call equal to one of the 2 before it', () => {
    const long = (pattern: (i: number) => number): Trajectory => ({
      id: 'long',
      turns: Array.from({ length: 51 }, (_, i) => call('t', { n: pattern(i) }, ok())),
    });
    const fifty: Trajectory = { id: 'fifty', turns: Array.from({ length: 50 }, () => call('t', { n: 0 }, ok())) };
    const result = behaviourStatistics([
      long((i) => i), // all different: no repeat
      long((i) => (i === 30 ? 28 : i)), // call 30 equals call 28, two back: a repeat pair
      long((i) => (i === 30 ? 27 : i)), // three back: not immediate
      fifty, // not long
    ]);
    expect(result.long_runs).toEqual({ n: 3, repeat_share: 1 / 3 });
  });

  it('is the same whether runs are tallied together or apart and added', () => {
    const together = tallyTrajectory(tallyTrajectory(emptyTally(), first), second);
    const apart = addTally(tallyTrajectory(emptyTally(), first), tallyTrajectory(emptyTally(), second));
    expect(apart).toEqual(together);
    expect(statisticsOfTally(apart)).toEqual(stats);
  });

  it('has nothing to share without calls', () => {
    const empty = behaviourStatistics([]);
    expect(empty.identical_consecutive).toBeNull();
    expect(empty.long_runs).toEqual({ n: 0, repeat_share: null });
  });
});
