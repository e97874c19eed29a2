import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import { type LaneEvent, RunLanes } from './run-lanes.js';

function setup(cancelTimeoutMs?: number) {
  const clock = new VirtualClock();
  const events: LaneEvent[] = [];
  const onEvent = (e: LaneEvent) => events.push(e);
  const lanes = new RunLanes(cancelTimeoutMs === undefined ? { clock, onEvent } : { clock, cancelTimeoutMs, onEvent });
  const started = () => events.flatMap((e) => (e.type === 'lane.started' ? [e.runId] : []));
  return { clock, events, lanes, started };
}

describe('RunLanes', () => {
  it('runs one lane in FIFO order, one run at a time', () => {
    const { lanes, started } = setup();
    expect(lanes.submit('conversation:1', 'a').kind).toBe('active');
    expect(lanes.submit('conversation:1', 'b').kind).toBe('queued');
    expect(lanes.submit('conversation:1', 'c').kind).toBe('queued');
    expect(lanes.active('conversation:1')).toBe('a');
    expect(lanes.queued('conversation:1')).toEqual(['b', 'c']);

    expect(lanes.finish('a', 'completed')).toBe('b');
    expect(lanes.queued('conversation:1')).toEqual(['c']);
    expect(lanes.finish('b', 'failed')).toBe('c');
    expect(lanes.finish('c', 'completed')).toBeNull();
    expect(lanes.active('conversation:1')).toBeNull();
    expect(started()).toEqual(['a', 'b', 'c']);
    expect(lanes.state('b')).toMatchObject({ kind: 'terminal', outcome: 'failed', endedBy: 'run' });
  });

  it("runs different lanes in parallel: one lane's queue never waits on another's", () => {
    const { lanes, started } = setup();
    lanes.submit('conversation:1', 'a1');
    lanes.submit('conversation:1', 'a2');
    lanes.submit('conversation:2', 'b1');
    lanes.submit('conversation:2', 'b2');
    expect([lanes.active('conversation:1'), lanes.active('conversation:2')]).toEqual(['a1', 'b1']);

    // Lane 2 drains completely while lane 1's first run is still going.
    expect(lanes.finish('b1', 'completed')).toBe('b2');
    expect(lanes.finish('b2', 'completed')).toBeNull();
    expect(lanes.active('conversation:1')).toBe('a1');
    expect(lanes.queued('conversation:1')).toEqual(['a2']);

    // A new run on the now idle lane 2 starts at once, ahead of lane 1's queue.
    expect(lanes.submit('conversation:2', 'b3').kind).toBe('active');
    expect(lanes.finish('a1', 'completed')).toBe('a2');
    expect(started()).toEqual(['a1', 'b1', 'b2', 'b3', 'a2']);
  });

  it('keeps the lane for a paused run: a later run queues until it resumes and finishes', () => {
    const { lanes } = setup();
    lanes.submit('l', 'a');
    lanes.pause('a');
    expect(lanes.state('a').kind).toBe('paused');
    expect(lanes.submit('l', 'b').kind).toBe('queued');
    lanes.resume('a');
    expect(lanes.state('a').kind).toBe('active');
    expect(lanes.finish('a', 'completed')).toBe('b');
  });

  it('drops a queued run on cancel: its signal aborts, it never starts, the run behind it does', () => {
    const { lanes, events, started } = setup();
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    lanes.submit('l', 'c');
    expect(lanes.requestCancel('b', 'user closed the tab')).toMatchObject({
      kind: 'terminal',
      outcome: 'cancelled',
      endedBy: 'dropped',
    });
    expect(lanes.signalFor('b').aborted).toBe(true);
    expect(lanes.queued('l')).toEqual(['c']);

    expect(lanes.finish('a', 'completed')).toBe('c');
    expect(started()).toEqual(['a', 'c']);
    expect(events.filter((e) => e.runId === 'b').map((e) => e.type)).toEqual([
      'lane.queued',
      'lane.cancel_requested',
      'lane.finished',
    ]);
  });

  it("aborts an active run's signal with the reason, and frees the lane only when the run finishes", () => {
    const { lanes } = setup(10_000);
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    const signal = lanes.signalFor('a');
    expect(signal.aborted).toBe(false);

    expect(lanes.requestCancel('a', 'user pressed stop')).toMatchObject({
      kind: 'cancel_requested',
      deadlineAt: 10_000,
      paused: false,
    });
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('user pressed stop');
    expect(lanes.signalFor('b').aborted).toBe(false);
    expect(lanes.active('l')).toBe('a');

    expect(lanes.finish('a', 'cancelled')).toBe('b');
    expect(lanes.state('a')).toMatchObject({ kind: 'terminal', outcome: 'cancelled', endedBy: 'run' });
    expect(lanes.nextDeadline()).toBeNull();
  });

  it('reconciles a paused run that never sees its cancel after exactly cancelTimeoutMs, then starts the next run', () => {
    const { clock, lanes, events } = setup(10_000);
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    clock.sleep(1_000);
    lanes.pause('a');
    clock.sleep(1_000);
    lanes.requestCancel('a');
    expect(lanes.nextDeadline()).toBe(12_000);

    clock.advanceTo(11_999);
    expect(lanes.reconcile()).toEqual([]);
    expect(lanes.state('a')).toMatchObject({ kind: 'cancel_requested', requestedAt: 2_000, paused: true });
    expect(lanes.active('l')).toBe('a');
    expect(lanes.queued('l')).toEqual(['b']);

    clock.advanceTo(12_000);
    expect(lanes.reconcile()).toEqual(['a']);
    expect(lanes.state('a')).toEqual({
      kind: 'terminal',
      lane: 'l',
      outcome: 'cancelled',
      endedAt: 12_000,
      endedBy: 'reconciled',
    });
    expect(lanes.active('l')).toBe('b');
    expect(lanes.state('b')).toEqual({ kind: 'active', lane: 'l', startedAt: 12_000 });
    expect(events.slice(-3)).toEqual([
      { type: 'lane.cancel_reconciled', at: 12_000, lane: 'l', runId: 'a', requestedAt: 2_000, paused: true },
      { type: 'lane.finished', at: 12_000, lane: 'l', runId: 'a', outcome: 'cancelled' },
      { type: 'lane.started', at: 12_000, lane: 'l', runId: 'b', waitedMs: 12_000 },
    ]);
    expect(lanes.reconcile()).toEqual([]);
  });

  it('gives a cancelled run 30 000 ms by default', () => {
    const { clock, lanes } = setup();
    lanes.submit('l', 'a');
    lanes.requestCancel('a');
    clock.advanceTo(29_999);
    expect(lanes.reconcile()).toEqual([]);
    clock.advanceTo(30_000);
    expect(lanes.reconcile()).toEqual(['a']);
  });

  it('does not push the deadline back when the cancel is requested again, or when the paused run resumes', () => {
    const { clock, lanes } = setup(10_000);
    lanes.submit('l', 'a');
    lanes.pause('a');
    lanes.requestCancel('a');
    clock.advanceTo(5_000);
    expect(lanes.requestCancel('a')).toMatchObject({ kind: 'cancel_requested', requestedAt: 0, deadlineAt: 10_000 });
    lanes.resume('a');
    expect(lanes.state('a')).toMatchObject({ kind: 'cancel_requested', deadlineAt: 10_000, paused: false });
    clock.advanceTo(10_000);
    expect(lanes.reconcile()).toEqual(['a']);
  });

  it('reconciles due runs on several lanes at once, earliest deadline first', () => {
    const { clock, lanes } = setup(1_000);
    lanes.submit('l1', 'x');
    lanes.submit('l2', 'y');
    lanes.submit('l3', 'z');
    lanes.requestCancel('y');
    clock.advanceTo(10);
    lanes.requestCancel('x');
    clock.advanceTo(500);
    lanes.requestCancel('z');
    expect(lanes.nextDeadline()).toBe(1_000);
    clock.advanceTo(1_010);
    expect(lanes.reconcile()).toEqual(['y', 'x']);
    expect(lanes.state('z').kind).toBe('cancel_requested');
    expect(lanes.nextDeadline()).toBe(1_500);
  });

  it('keeps the lane moved on when a reconciled run wakes and finishes late', () => {
    const { clock, lanes, events } = setup(1_000);
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    lanes.submit('l', 'c');
    lanes.requestCancel('a');
    clock.advanceTo(1_000);
    lanes.reconcile();
    clock.advanceTo(1_500);

    expect(lanes.finish('a', 'completed')).toBeNull();
    expect(lanes.state('a')).toMatchObject({ kind: 'terminal', outcome: 'cancelled', endedBy: 'reconciled' });
    expect(lanes.active('l')).toBe('b');
    expect(lanes.queued('l')).toEqual(['c']);
    expect(events.at(-1)).toEqual({ type: 'lane.late_finish', at: 1_500, lane: 'l', runId: 'a', outcome: 'completed' });
  });

  it('keeps the outcome a run reports when it ends on its own before the cancel deadline', () => {
    const { clock, lanes } = setup(1_000);
    lanes.submit('l', 'a');
    lanes.requestCancel('a');
    clock.advanceTo(400);
    lanes.finish('a', 'completed');
    clock.advanceTo(5_000);
    expect(lanes.reconcile()).toEqual([]);
    expect(lanes.state('a')).toEqual({
      kind: 'terminal',
      lane: 'l',
      outcome: 'completed',
      endedAt: 400,
      endedBy: 'run',
    });
    expect(lanes.requestCancel('a').kind).toBe('terminal');
  });

  it('records every transition with its virtual time', () => {
    const { clock, lanes, events } = setup(5_000);
    lanes.submit('l', 'a');
    clock.sleep(100);
    lanes.submit('l', 'b');
    clock.sleep(200);
    lanes.pause('a');
    clock.sleep(300);
    lanes.resume('a');
    clock.sleep(400);
    lanes.requestCancel('a', 'stop');
    clock.sleep(500);
    lanes.finish('a', 'cancelled');
    expect(events).toEqual([
      { type: 'lane.started', at: 0, lane: 'l', runId: 'a', waitedMs: 0 },
      { type: 'lane.queued', at: 100, lane: 'l', runId: 'b', ahead: 1 },
      { type: 'lane.paused', at: 300, lane: 'l', runId: 'a' },
      { type: 'lane.resumed', at: 600, lane: 'l', runId: 'a' },
      { type: 'lane.cancel_requested', at: 1_000, lane: 'l', runId: 'a', reason: 'stop', deadlineAt: 6_000 },
      { type: 'lane.finished', at: 1_500, lane: 'l', runId: 'a', outcome: 'cancelled' },
      { type: 'lane.started', at: 1_500, lane: 'l', runId: 'b', waitedMs: 1_400 },
    ]);
  });

  it('throws on misuse: finishing a run that does not hold its lane, twice, or unknown; a repeated id', () => {
    const { lanes } = setup();
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    expect(() => lanes.finish('b', 'completed')).toThrow(
      "RunLanes: cannot finish run 'b': it is queued, not holding lane 'l'",
    );
    expect(() => lanes.finish('zzz', 'completed')).toThrow("RunLanes: unknown run 'zzz'");
    expect(() => lanes.submit('other', 'a')).toThrow("RunLanes: run 'a' was already submitted");
    lanes.finish('a', 'completed');
    expect(() => lanes.finish('a', 'completed')).toThrow(
      "RunLanes: cannot finish run 'a': it is terminal, not holding lane 'l'",
    );
    // The failed calls changed nothing.
    expect(lanes.active('l')).toBe('b');
    expect(lanes.active('other')).toBeNull();
  });

  it('throws on pausing or resuming a run in the wrong state', () => {
    const { lanes } = setup();
    lanes.submit('l', 'a');
    lanes.submit('l', 'b');
    expect(() => lanes.resume('a')).toThrow("RunLanes: cannot resume run 'a': it is active");
    expect(() => lanes.pause('b')).toThrow("RunLanes: cannot pause run 'b': it is queued");
    lanes.pause('a');
    expect(() => lanes.pause('a')).toThrow("RunLanes: cannot pause run 'a': it is paused");
    lanes.requestCancel('a');
    expect(() => lanes.pause('a')).toThrow("RunLanes: cannot pause run 'a': it is cancel_requested");
  });

  it('rejects a cancel timeout that is not a positive finite number', () => {
    const clock = new VirtualClock();
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new RunLanes({ clock, cancelTimeoutMs: bad })).toThrow(
        'cancelTimeoutMs must be a positive finite number',
      );
    }
  });
});
