import { describe, expect, it } from 'vitest';
import { VirtualClock } from './virtual-clock.js';

describe('VirtualClock', () => {
  it('starts at 0, or at the given start', () => {
    expect(new VirtualClock().now()).toBe(0);
    expect(new VirtualClock(1500).now()).toBe(1500);
  });

  it('advances now() by exactly what was slept', () => {
    const clock = new VirtualClock();
    clock.sleep(1000);
    clock.sleep(2000);
    clock.sleep(4000.5);
    expect(clock.now()).toBe(7000.5);
  });

  it('ignores negative, zero and non-finite sleeps', () => {
    const clock = new VirtualClock(10);
    clock.sleep(-500);
    clock.sleep(0);
    clock.sleep(Number.NaN);
    clock.sleep(Number.POSITIVE_INFINITY);
    expect(clock.now()).toBe(10);
  });

  it('keeps clocks independent', () => {
    const a = new VirtualClock();
    const b = new VirtualClock();
    a.sleep(250);
    expect([a.now(), b.now()]).toEqual([250, 0]);
  });
});
