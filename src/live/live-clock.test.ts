import { describe, expect, it } from 'vitest';
import { LiveClock } from './live-clock.js';

// Live mode's clock is real: these tests sleep, briefly (tens of ms), on purpose.
describe('LiveClock: real time in the scenario’s milliseconds', () => {
  it('sleeps the scaled wait for real and reads it back unscaled', () => {
    const clock = new LiveClock(0.01);
    const started = performance.now();
    clock.sleep(2000); // 20 ms real
    const realMs = performance.now() - started;
    expect(realMs).toBeGreaterThanOrEqual(19);
    expect(realMs).toBeLessThan(1000);
    expect(clock.now()).toBeGreaterThanOrEqual(1900);
    expect(clock.wallMs()).toBeGreaterThanOrEqual(19);
  });

  it('advanceTo waits only for what is left, and never goes back', () => {
    const clock = new LiveClock(0.01);
    clock.sleep(1000);
    const before = clock.now();
    const started = performance.now();
    clock.advanceTo(before - 500);
    expect(performance.now() - started).toBeLessThan(5);
    clock.advanceTo(before + 1000);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 990);
  });
});
