import { isHelpTool } from './help-tool.js';
import { carriesNoRetryAdvice, RESULT_KINDS, type ResultKind, resultKind } from './result-kind.js';
import { callFingerprint, isCallTurn, type Trajectory } from './trajectory.js';

/**
 * Behaviour statistics of agent trajectories. The definitions, here and in docs/behaviour.md:
 *
 * - `calls`: tool calls in all trajectories.
 * - `identical_consecutive`: the share of calls whose name and canonical arguments equal
 *   the call immediately before it in the same trajectory (a text turn between them does
 *   not break the pair).
 * - `after[kind]`: for each call turn that another turn follows, the kind of its last
 *   call's result (result-kind.ts), and what the next turn does: `identical` (its first
 *   call is that last call, name and arguments), `same_tool_other_args`, `other_tool`, or
 *   `stop_or_help` (a text turn, or a call of a help tool, help-tool.ts, checked first).
 *   A turn after which the trajectory ends, and a turn whose last call was never
 *   answered, are not counted. Shares are of `n`; null when `n` is 0.
 * - `long_runs`: trajectories with more than 50 calls, and the share of them holding an
 *   immediate repeat pair: a call whose fingerprint equals one of the previous 2 calls'.
 * - `hint_effect`: after a permanent error, the `identical` share when the error carries
 *   explicit no-retry advice ("Do not retry") and when it does not, and the relative cut
 *   1 − with/without (null unless both have data and `without` is above 0).
 *
 * Statistics are computed from a tally of counts (`BehaviourTally`), which adds across
 * runs, groups and threads: a calibration worker tallies its runs and ships the counts,
 * never the transcripts.
 */
export const NEXT_ACTIONS = ['identical', 'same_tool_other_args', 'other_tool', 'stop_or_help'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

/** A run is long above this many calls (the article's spiral threshold). */
export const LONG_RUN_CALLS = 50;
/** An immediate repeat: a call equal to one of this many calls before it (the repeat guard's window). */
export const REPEAT_WINDOW = 2;

export type ActionCounts = { n: number } & Record<NextAction, number>;

/** Counts behind the statistics; plain numbers, so it crosses threads cheaply and sums. */
export interface BehaviourTally {
  runs: number;
  calls: number;
  identical_consecutive: number;
  after: Record<ResultKind, ActionCounts>;
  long_runs: number;
  long_runs_with_repeat: number;
  permanent_with_advice: { n: number; identical: number };
  permanent_without_advice: { n: number; identical: number };
}

export type ActionShares = { readonly n: number } & Readonly<Record<NextAction, number | null>>;

export interface BehaviourStatistics {
  readonly runs: number;
  readonly calls: number;
  /** Share of calls; null without calls. */
  readonly identical_consecutive: number | null;
  readonly after: Readonly<Record<ResultKind, ActionShares>>;
  readonly long_runs: { readonly n: number; readonly repeat_share: number | null };
  readonly hint_effect: {
    readonly with_advice: { readonly n: number; readonly identical: number | null };
    readonly without_advice: { readonly n: number; readonly identical: number | null };
    readonly cut: number | null;
  };
}

const emptyActions = (): ActionCounts => ({
  n: 0,
  identical: 0,
  same_tool_other_args: 0,
  other_tool: 0,
  stop_or_help: 0,
});

export function emptyTally(): BehaviourTally {
  return {
    runs: 0,
    calls: 0,
    identical_consecutive: 0,
    after: Object.fromEntries(RESULT_KINDS.map((kind) => [kind, emptyActions()])) as Record<ResultKind, ActionCounts>,
    long_runs: 0,
    long_runs_with_repeat: 0,
    permanent_with_advice: { n: 0, identical: 0 },
    permanent_without_advice: { n: 0, identical: 0 },
  };
}

/** Adds one trajectory's counts to `tally` (in place) and returns it. */
export function tallyTrajectory(tally: BehaviourTally, trajectory: Trajectory): BehaviourTally {
  const { turns } = trajectory;
  const recent: string[] = [];
  let calls = 0;
  let repeatPair = false;
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t]!;
    if (!isCallTurn(turn)) continue;
    for (const call of turn.calls) {
      const print = callFingerprint(call);
      if (recent.length > 0 && recent[recent.length - 1] === print) tally.identical_consecutive += 1;
      if (recent.includes(print)) repeatPair = true;
      recent.push(print);
      if (recent.length > REPEAT_WINDOW) recent.shift();
      calls += 1;
    }
    const next = turns[t + 1];
    const last = turn.calls[turn.calls.length - 1]!;
    if (next === undefined || last.result === null) continue;
    const kind = resultKind(last.result);
    let action: NextAction;
    if (!isCallTurn(next) || isHelpTool(next.calls[0]!.name)) action = 'stop_or_help';
    else if (callFingerprint(next.calls[0]!) === callFingerprint(last)) action = 'identical';
    else if (next.calls[0]!.name === last.name) action = 'same_tool_other_args';
    else action = 'other_tool';
    const counts = tally.after[kind];
    counts.n += 1;
    counts[action] += 1;
    if (kind === 'permanent') {
      const hint = carriesNoRetryAdvice(last.result.text)
        ? tally.permanent_with_advice
        : tally.permanent_without_advice;
      hint.n += 1;
      if (action === 'identical') hint.identical += 1;
    }
  }
  tally.runs += 1;
  tally.calls += calls;
  if (calls > LONG_RUN_CALLS) {
    tally.long_runs += 1;
    if (repeatPair) tally.long_runs_with_repeat += 1;
  }
  return tally;
}

/** `into` plus `more`, in place; returns `into`. */
export function addTally(into: BehaviourTally, more: BehaviourTally): BehaviourTally {
  into.runs += more.runs;
  into.calls += more.calls;
  into.identical_consecutive += more.identical_consecutive;
  for (const kind of RESULT_KINDS) {
    const to = into.after[kind];
    const from = more.after[kind];
    to.n += from.n;
    for (const action of NEXT_ACTIONS) to[action] += from[action];
  }
  into.long_runs += more.long_runs;
  into.long_runs_with_repeat += more.long_runs_with_repeat;
  for (const key of ['permanent_with_advice', 'permanent_without_advice'] as const) {
    into[key].n += more[key].n;
    into[key].identical += more[key].identical;
  }
  return into;
}

const share = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

/** The statistics of a tally (see the definitions above). */
export function statisticsOfTally(tally: BehaviourTally): BehaviourStatistics {
  const withAdvice = share(tally.permanent_with_advice.identical, tally.permanent_with_advice.n);
  const withoutAdvice = share(tally.permanent_without_advice.identical, tally.permanent_without_advice.n);
  return {
    runs: tally.runs,
    calls: tally.calls,
    identical_consecutive: share(tally.identical_consecutive, tally.calls),
    after: Object.fromEntries(
      RESULT_KINDS.map((kind) => {
        const counts = tally.after[kind];
        return [
          kind,
          {
            n: counts.n,
            ...Object.fromEntries(NEXT_ACTIONS.map((action) => [action, share(counts[action], counts.n)])),
          },
        ];
      }),
    ) as Record<ResultKind, ActionShares>,
    long_runs: { n: tally.long_runs, repeat_share: share(tally.long_runs_with_repeat, tally.long_runs) },
    hint_effect: {
      with_advice: { n: tally.permanent_with_advice.n, identical: withAdvice },
      without_advice: { n: tally.permanent_without_advice.n, identical: withoutAdvice },
      cut: withAdvice === null || withoutAdvice === null || withoutAdvice === 0 ? null : 1 - withAdvice / withoutAdvice,
    },
  };
}

/**
 * Behaviour statistics of some trajectories (see the definitions above).
 *
 * @example
 * const stats = behaviourStatistics([{ id: 'r1', turns: [...] }]);
 * stats.after.permanent.identical; // share of identical retries after a permanent error
 */
export function behaviourStatistics(trajectories: Iterable<Trajectory>): BehaviourStatistics {
  const tally = emptyTally();
  for (const trajectory of trajectories) tallyTrajectory(tally, trajectory);
  return statisticsOfTally(tally);
}
