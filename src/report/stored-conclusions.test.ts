import { describe, expect, it } from 'vitest';
import { openFinishedSweep } from '../results/results-reader.js';
import { extendSummary } from '../results/results-writer.js';
import type { StoredRun } from '../results/run-record-schema.js';
import { finishedFolder, fixtureRun, fixtureSummary } from '../results/sweep-fixture.test-helpers.js';
import { ROBUST_MIN_MEMBERS } from '../stats/robustness.js';
import { readRunConclusions } from './run-conclusions.js';
import { storedConclusions } from './stored-conclusions.js';

const MEMBERS = 12;
const SEEDS = 120;

/**
 * Two scenarios, three arms, 120 seeds played by 12 members. `plain`: none 40%, article 80%,
 * all 60%. `outage`: none 20%, article 20%, all 90%, with model-call retries (a guard only
 * all holds) on every all run: a showcase.
 */
function sweepFolder(): string {
  const rate: Record<string, Record<string, number>> = {
    plain: { none: 2, article: 4, all: 3 },
    outage: { none: 1, article: 1, all: 4.5 },
  };
  const runs: StoredRun[] = [];
  for (const scenario of ['plain', 'outage'])
    for (const arm of ['none', 'article', 'all'])
      for (let seed = 1; seed <= SEEDS; seed++) {
        // Success on seeds whose position in a cycle of 10 is below twice the rate (out of 5).
        const success = ((seed - 1) % 10) / 2 < (rate[scenario]?.[arm] ?? 0);
        runs.push(
          fixtureRun({
            scenario,
            arm,
            seed,
            verdict: success ? 'success' : 'failure',
            member: (seed - 1) % MEMBERS,
            events: { 'agent.model.retry': scenario === 'outage' && arm === 'all' ? 2 : 0, 'agent_run.started': 1 },
          }),
        );
      }
  const cells = ['plain', 'outage'].flatMap((scenario) =>
    ['none', 'article', 'all'].map((arm) => ({ scenario, arm, runs: SEEDS })),
  );
  return finishedFolder(runs, {
    ...fixtureSummary(cells, SEEDS, { ensemble: { name: 'default', members: MEMBERS, hash: 'h' } }),
    arms: [
      { name: 'none', guards: [] },
      { name: 'article', guards: ['stuck', 'budget', 'repeat', 'classify'].map((guard) => ({ guard })) },
      { name: 'all', guards: ['stuck', 'budget', 'repeat', 'classify', 'recover'].map((guard) => ({ guard })) },
    ],
  });
}

describe('summary.json conclusions', () => {
  it('carries every label, interval and the recommendation with its mix, and reads back through the schema', async () => {
    const dir = sweepFolder();
    const before = openFinishedSweep(dir).summary;
    const conclusions = await readRunConclusions(dir, before);
    extendSummary(dir, before, { conclusions: storedConclusions(conclusions) });
    const stored = openFinishedSweep(dir).summary.conclusions;
    expect(stored).toBeDefined();
    expect(stored?.baseline).toBe('none');
    expect(stored?.members).toBe(MEMBERS);
    expect(stored?.rule).toEqual({ robust_min_members: ROBUST_MIN_MEMBERS, heterogeneity_alpha: 0.05 });
    // Per scenario and arm: what the tables say, field for field.
    expect(stored?.cells.map((cell) => [cell.scenario, cell.arm])).toEqual([
      ['plain', 'article'],
      ['plain', 'all'],
      ['outage', 'article'],
      ['outage', 'all'],
    ]);
    for (const cell of stored?.cells ?? []) {
      const effect = conclusions.effects.get(`${cell.scenario}\u0000${cell.arm}`)!.success;
      expect(cell.success).toEqual({
        label: effect.label,
        borderline: effect.borderline,
        flipped_by: effect.flippedBy,
        members: MEMBERS,
        pooled: effect.pooled,
        low: effect.low,
        high: effect.high,
        significant: effect.significant,
        prediction_low: effect.predictionLow,
        prediction_high: effect.predictionHigh,
        tau: effect.tau,
        heterogeneity_p: effect.heterogeneityP,
      });
      expect(cell.success.prediction_low).not.toBeNull();
    }
    expect(stored?.arms.map((arm) => [arm.arm, arm.rank, arm.success?.label ?? null])).toEqual([
      ['all', 1, conclusions.answer.arms[0]?.vsBaseline?.success.label],
      ['article', 2, conclusions.answer.arms[1]?.vsBaseline?.success.label],
      ['none', 3, null],
    ]);
    expect(stored?.recommendation).toMatchObject({
      arm: 'all',
      best: [
        { arm: 'none', best: 0, tied_best: 0 },
        { arm: 'article', best: 1, tied_best: 0 },
        { arm: 'all', best: 1, tied_best: 0 },
      ],
      all_tied: [],
      showcases: [{ scenario: 'outage', arm: 'all', guards: ['recover'], events: 2 * SEEDS }],
      without_showcases: { scenarios: ['plain'], arm: 'article', success_rate: 0.8 },
      leave_one_out: [{ scenario: 'outage', arm: 'article' }],
    });
    expect(stored?.recommendation.without_showcases?.success?.pooled).toBeCloseTo(0.4, 12);
  });
});
