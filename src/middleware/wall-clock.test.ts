import { describe, expect, it } from 'vitest';
import { wallClock } from './wall-clock.js';

describe('wallClock', () => {
  it('owes what guards sleep and pays it all at once through the timer, never blocking', async () => {
    const waited: number[] = [];
    const clock = wallClock(async (ms) => void waited.push(ms));
    expect(clock.settle?.()).toBeUndefined();
    const before = clock.now();
    clock.sleep(1000);
    clock.sleep(500);
    expect(clock.now() - before).toBeGreaterThanOrEqual(1500);
    await clock.settle?.();
    expect(waited).toEqual([1500]);
    expect(clock.settle?.()).toBeUndefined();
  });
});
