import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatch } from './idle-watch.js';

describe('IdleWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends a run only after the whole wait passes without a request for it', () => {
    const idle: string[] = [];
    const watch = new IdleWatch(10, (id) => idle.push(id));
    watch.touch('run-1');
    vi.advanceTimersByTime(9_000);
    watch.touch('run-1');
    vi.advanceTimersByTime(9_000);
    expect(idle).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(idle).toEqual(['run-1']);
  });

  it('forgets ended runs, watches nothing at 0 s, and waits out a very long timeout', () => {
    const idle: string[] = [];
    const watch = new IdleWatch(10, (id) => idle.push(id));
    watch.touch('run-2');
    watch.forget('run-2');
    new IdleWatch(0, (id) => idle.push(id)).touch('run-3');
    new IdleWatch(1e9, (id) => idle.push(id)).touch('run-4');
    vi.advanceTimersByTime(60_000);
    expect(idle).toEqual([]);
  });

  it('waits longer than setTimeout can at once (30 days), neither firing early nor never', () => {
    const idle: string[] = [];
    new IdleWatch(30 * 86_400, (id) => idle.push(id)).touch('run-5');
    vi.advanceTimersByTime(30 * 86_400_000 - 1_000);
    expect(idle).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(idle).toEqual(['run-5']);
  });
});
