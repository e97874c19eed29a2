import { describe, expect, it } from 'vitest';
import { streamSavings } from './stream-savings.js';

const run = (seed: number, verdict: string, virtual_ms: number, tool_calls = 3) => ({
  scenario: 's',
  arm: 'a',
  seed,
  verdict: verdict as 'success',
  outcome: 'completed' as const,
  tool_calls,
  model_calls: 4,
  input_tokens: 100,
  output_tokens: 10,
  virtual_ms,
});

describe('streamSavings', () => {
  it('pairs runs by seed and counts agreement and time saved', () => {
    const rows = streamSavings(
      [run(1, 'success', 1000), run(2, 'failure', 2000), run(3, 'success', 500)],
      [run(3, 'success', 500), run(1, 'success', 700, 4), run(2, 'success', 1900)],
    );
    expect(rows).toEqual([
      {
        scenario: 's',
        arm: 'a',
        runs: 3,
        sameVerdict: 2,
        sameRun: 2,
        savedMs: { median: 100, p95: 280, max: 300, mean: 133.33 },
        savedRuns: 2,
        plainMeanMs: 1167,
      },
    ]);
  });

  it('refuses sweeps that do not cover the same runs', () => {
    expect(() => streamSavings([run(1, 'success', 1)], [run(2, 'success', 1)])).toThrow(
      'seed 2 is in the streamed sweep only',
    );
    expect(() => streamSavings([run(1, 'success', 1)], [])).toThrow('the sweeps differ in size');
  });
});
