import type { VirtualClock } from '../clock/virtual-clock.js';
import type { OutcomeKind } from '../loop/outcome.js';

export interface RunLanesOptions {
  /** All time comes from here; the scheduler sets no timers, the driver calls `reconcile()`. */
  readonly clock: VirtualClock;
  /**
   * Virtual ms a run holding its lane has, after a cancel request, to end by itself before
   * `reconcile()` ends it as `cancelled` and gives the lane to the next run.
   * @default 30_000
   */
  readonly cancelTimeoutMs?: number;
  /** Called with every transition, in order. @default no listener */
  readonly onEvent?: (event: LaneEvent) => void;
}

/**
 * Where one run is. A run that holds its lane is `active`, `paused` (waiting on a human) or
 * `cancel_requested`; `paused` there says whether it was waiting when last told, which is
 * only informative: the deadline applies either way.
 */
export type LaneRunState =
  | { readonly kind: 'queued'; readonly lane: string; readonly queuedAt: number }
  | { readonly kind: 'active'; readonly lane: string; readonly startedAt: number }
  | { readonly kind: 'paused'; readonly lane: string; readonly startedAt: number; readonly pausedAt: number }
  | {
      readonly kind: 'cancel_requested';
      readonly lane: string;
      readonly startedAt: number;
      readonly requestedAt: number;
      readonly deadlineAt: number;
      readonly paused: boolean;
    }
  /** `endedBy`: the run called `finish`, it was dropped from the queue, or `reconcile` ended it. */
  | {
      readonly kind: 'terminal';
      readonly lane: string;
      readonly outcome: OutcomeKind;
      readonly endedAt: number;
      readonly endedBy: 'run' | 'dropped' | 'reconciled';
    };

/** Every run that reaches a terminal state gets exactly one `lane.finished`, last. `at` is virtual ms. */
export type LaneEvent =
  /** `ahead`: runs before it in the lane, the one holding the lane included. */
  | {
      readonly type: 'lane.queued';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly ahead: number;
    }
  | {
      readonly type: 'lane.started';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly waitedMs: number;
    }
  | { readonly type: 'lane.paused'; readonly at: number; readonly lane: string; readonly runId: string }
  | { readonly type: 'lane.resumed'; readonly at: number; readonly lane: string; readonly runId: string }
  /** `deadlineAt` is null for a queued run: it is dropped at once and never starts. */
  | {
      readonly type: 'lane.cancel_requested';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly reason: string;
      readonly deadlineAt: number | null;
    }
  /** The run never ended after its cancel request; emitted just before its `lane.finished`. */
  | {
      readonly type: 'lane.cancel_reconciled';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly requestedAt: number;
      readonly paused: boolean;
    }
  | {
      readonly type: 'lane.finished';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly outcome: OutcomeKind;
    }
  /** A reconciled run's loop woke and reported `outcome`; ignored, its lane has moved on. */
  | {
      readonly type: 'lane.late_finish';
      readonly at: number;
      readonly lane: string;
      readonly runId: string;
      readonly outcome: OutcomeKind;
    };

interface RunEntry {
  state: LaneRunState;
  readonly controller: AbortController;
}

interface Lane {
  holder: string | null;
  readonly queue: string[];
}

/**
 * One active run per lane (e.g. `conversation:<id>`), later runs FIFO behind it; lanes are
 * independent. Misuse (unknown or repeated ids, finishing a run that does not hold its lane)
 * throws: this is a programming interface. Races a driver cannot avoid (a cancel as the run
 * ends, a reconciled run waking late) are accepted quietly.
 *
 * @example
 * const lanes = new RunLanes({ clock, cancelTimeoutMs: 10_000 });
 * lanes.submit('conversation:7', 'run-1');            // starts at once
 * lanes.submit('conversation:7', 'run-2');            // queued behind run-1
 * loop = new BudgetedAgentLoop({ ..., signal: lanes.signalFor('run-1') });
 * lanes.finish('run-1', (await loop.run(prompt)).outcome.kind); // returns 'run-2'
 */
export class RunLanes {
  readonly #clock: VirtualClock;
  readonly #cancelTimeoutMs: number;
  readonly #onEvent: (event: LaneEvent) => void;
  readonly #runs = new Map<string, RunEntry>();
  readonly #lanes = new Map<string, Lane>();

  constructor(options: RunLanesOptions) {
    const cancelTimeoutMs = options.cancelTimeoutMs ?? 30_000;
    if (!(cancelTimeoutMs > 0 && Number.isFinite(cancelTimeoutMs)))
      throw new Error(`RunLanes: cancelTimeoutMs must be a positive finite number of ms, got ${cancelTimeoutMs}`);
    this.#clock = options.clock;
    this.#cancelTimeoutMs = cancelTimeoutMs;
    this.#onEvent = options.onEvent ?? (() => {});
  }

  /** Start `runId` on `lane` now if the lane is free, else queue it last. Returns its state. */
  submit(lane: string, runId: string): LaneRunState {
    if (this.#runs.has(runId)) throw new Error(`RunLanes: run '${runId}' was already submitted`);
    const at = this.#clock.now();
    const entry: RunEntry = { state: { kind: 'queued', lane, queuedAt: at }, controller: new AbortController() };
    this.#runs.set(runId, entry);
    const slot = this.#lane(lane);
    if (slot.holder === null) {
      this.#start(slot, runId);
    } else {
      slot.queue.push(runId);
      this.#onEvent({ type: 'lane.queued', at, lane, runId, ahead: slot.queue.length });
    }
    return entry.state;
  }

  /** The run ended with `outcome`; its lane goes to the next queued run, whose id is returned. */
  finish(runId: string, outcome: OutcomeKind): string | null {
    const { state } = this.#entry(runId);
    if (state.kind === 'terminal' && state.endedBy === 'reconciled') {
      this.#onEvent({ type: 'lane.late_finish', at: this.#clock.now(), lane: state.lane, runId, outcome });
      return null;
    }
    if (state.kind === 'queued' || state.kind === 'terminal')
      throw new Error(`RunLanes: cannot finish run '${runId}': it is ${state.kind}, not holding lane '${state.lane}'`);
    return this.#end(runId, outcome, 'run');
  }

  /** The run holding its lane now waits on a human; it keeps the lane. */
  pause(runId: string): void {
    this.#setPaused(runId, true);
  }

  resume(runId: string): void {
    this.#setPaused(runId, false);
  }

  /**
   * Ask `runId` to stop: its signal aborts with `reason`. A queued run is dropped at once; a
   * run holding its lane has `cancelTimeoutMs` to call `finish`. Repeating the request, or
   * cancelling a run that already ended, changes nothing (the deadline is not pushed back).
   */
  requestCancel(runId: string, reason = 'cancel requested'): LaneRunState {
    const entry = this.#entry(runId);
    const { state } = entry;
    if (state.kind === 'terminal' || state.kind === 'cancel_requested') return state;
    const at = this.#clock.now();
    entry.controller.abort(reason);
    if (state.kind === 'queued') {
      const slot = this.#lane(state.lane);
      slot.queue.splice(slot.queue.indexOf(runId), 1);
      this.#onEvent({ type: 'lane.cancel_requested', at, lane: state.lane, runId, reason, deadlineAt: null });
      this.#end(runId, 'cancelled', 'dropped');
    } else {
      const deadlineAt = at + this.#cancelTimeoutMs;
      entry.state = {
        kind: 'cancel_requested',
        lane: state.lane,
        startedAt: state.startedAt,
        requestedAt: at,
        deadlineAt,
        paused: state.kind === 'paused',
      };
      this.#onEvent({ type: 'lane.cancel_requested', at, lane: state.lane, runId, reason, deadlineAt });
    }
    return entry.state;
  }

  /** End as `cancelled` every run whose cancel deadline has passed; returns their ids, earliest deadline first. */
  reconcile(): string[] {
    const now = this.#clock.now();
    const due = [...this.#runs]
      .flatMap(([runId, { state }]) =>
        state.kind === 'cancel_requested' && state.deadlineAt <= now ? [{ runId, state }] : [],
      )
      .sort((a, b) => a.state.deadlineAt - b.state.deadlineAt);
    for (const { runId, state } of due) {
      this.#onEvent({
        type: 'lane.cancel_reconciled',
        at: now,
        lane: state.lane,
        runId,
        requestedAt: state.requestedAt,
        paused: state.paused,
      });
      this.#end(runId, 'cancelled', 'reconciled');
    }
    return due.map((d) => d.runId);
  }

  /** The earliest pending cancel deadline, so a driver knows how far to advance the clock; null if none. */
  nextDeadline(): number | null {
    let next: number | null = null;
    for (const { state } of this.#runs.values()) {
      if (state.kind === 'cancel_requested' && (next === null || state.deadlineAt < next)) next = state.deadlineAt;
    }
    return next;
  }

  /** The run holding `lane` (active, paused or cancel requested), or null when it is free. */
  active(lane: string): string | null {
    return this.#lanes.get(lane)?.holder ?? null;
  }

  /** The runs waiting for `lane`, next to start first. */
  queued(lane: string): readonly string[] {
    return [...(this.#lanes.get(lane)?.queue ?? [])];
  }

  state(runId: string): LaneRunState {
    return this.#entry(runId).state;
  }

  /** Aborted (with the cancel reason) when the run is asked to cancel: hand it to the run's loop. */
  signalFor(runId: string): AbortSignal {
    return this.#entry(runId).controller.signal;
  }

  #entry(runId: string): RunEntry {
    const entry = this.#runs.get(runId);
    if (entry === undefined) throw new Error(`RunLanes: unknown run '${runId}'`);
    return entry;
  }

  #lane(lane: string): Lane {
    let slot = this.#lanes.get(lane);
    if (slot === undefined) this.#lanes.set(lane, (slot = { holder: null, queue: [] }));
    return slot;
  }

  #start(slot: Lane, runId: string): void {
    const entry = this.#entry(runId);
    const at = this.#clock.now();
    const waitedMs = entry.state.kind === 'queued' ? at - entry.state.queuedAt : 0;
    slot.holder = runId;
    entry.state = { kind: 'active', lane: entry.state.lane, startedAt: at };
    this.#onEvent({ type: 'lane.started', at, lane: entry.state.lane, runId, waitedMs });
  }

  #end(runId: string, outcome: OutcomeKind, endedBy: 'run' | 'dropped' | 'reconciled'): string | null {
    const entry = this.#entry(runId);
    const { lane } = entry.state;
    const at = this.#clock.now();
    entry.state = { kind: 'terminal', lane, outcome, endedAt: at, endedBy };
    this.#onEvent({ type: 'lane.finished', at, lane, runId, outcome });
    const slot = this.#lane(lane);
    if (slot.holder !== runId) return null;
    slot.holder = null;
    const next = slot.queue.shift();
    if (next === undefined) return null;
    this.#start(slot, next);
    return next;
  }

  #setPaused(runId: string, paused: boolean): void {
    const entry = this.#entry(runId);
    const { state } = entry;
    const at = this.#clock.now();
    if (state.kind === 'cancel_requested' && state.paused !== paused) {
      // The human may answer (or the run may ask) as the cancel goes out: keep the deadline.
      entry.state = { ...state, paused };
    } else if (paused && state.kind === 'active') {
      entry.state = { kind: 'paused', lane: state.lane, startedAt: state.startedAt, pausedAt: at };
    } else if (!paused && state.kind === 'paused') {
      entry.state = { kind: 'active', lane: state.lane, startedAt: state.startedAt };
    } else {
      throw new Error(`RunLanes: cannot ${paused ? 'pause' : 'resume'} run '${runId}': it is ${state.kind}`);
    }
    this.#onEvent({ type: paused ? 'lane.paused' : 'lane.resumed', at, lane: state.lane, runId });
  }
}
