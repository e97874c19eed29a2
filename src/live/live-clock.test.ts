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
    expect(clock.now()).toBeGreaterThanOrEqual(1900);
    expect(clock.wallMs()).toBeGreaterThanOrEqual(19);
  });

  it('advanceTo waits only for what is left, and never goes back', () => {
    // What it asks to sleep is checked, not how long that took: the suite runs on loaded machines.
    const asked: number[] = [];
    const clock = new (class extends LiveClock {
      override sleep(ms: number): void {
        asked.push(ms);
        super.sleep(ms);
      }
    })(0.01);
    clock.sleep(1000);
    const before = clock.now();
    clock.advanceTo(before - 500);
    expect(asked[1]).toBeLessThanOrEqual(-500);
    clock.advanceTo(before + 1000);
    expect(asked[2]).toBeGreaterThan(0);
    expect(asked[2]).toBeLessThanOrEqual(1000);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 990);
  });
});
