import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../results/sweep-fixture.test-helpers.js';
import type { StoredSummary } from '../results/summary-schema.js';
import type { SweepCell, SweepRuns } from './read-sweep.js';
import { recommend } from './recommendation.js';
import { scenarioMix } from './scenario-mix.js';
import { mixSentences } from './scenario-mix-text.js';
import { runColumns } from './sweep-cell.test-helpers.js';

const RUNS = 20;

/** A cell of 20 runs, the first `successes` right, its runs' guard events summed in `events`. */
function cell(scenario: string, arm: string, successes: number, events: Record<string, number> = {}): SweepCell {
  const calls = Float64Array.from({ length: RUNS }, (_, i) => 5 + (i % 3));
  return {
    scenario,
    arm,
    impossible: false,
    trials: RUNS,
    successes,
    escalated: 0,
    toolCalls: calls,
    inputTokens: calls.map((c) => 1000 * c),
    outputTokens: calls.map((c) => 100 * c),
    ...runColumns(RUNS, { successes }),
    events,
  };
}

const ARMS = [
  { name: 'none', guards: [] },
  { name: 'article', guards: ['stuck', 'budget', 'repeat', 'classify'].map((guard) => ({ guard })) },
  // Only `all` holds recovery and loop detection.
  { name: 'all', guards: ['stuck', 'budget', 'repeat', 'classify', 'recover', 'loops'].map((guard) => ({ guard })) },
];

function sweep(cells: SweepCell[]): { runs: SweepRuns; summary: StoredSummary } {
  return {
    summary: {
      ...fixtureSummary(
        cells.map((c) => ({ scenario: c.scenario, arm: c.arm, runs: c.trials })),
        RUNS,
      ),
      arms: ARMS,
    },
    runs: {
      path: 'x',
      runsFile: 'x/runs.jsonl',
      runs: cells.length * RUNS,
      cells,
      models: ['simulated'],
      ensemble: undefined,
      shard: null,
      scenarioHashes: new Map(),
    },
  };
}

// plain: article wins; all's loop detection fired, but all does not win there.
// outage: all wins, with model-call recovery (a guard only all holds) firing: a showcase.
// shared: all wins, but only with events of the repeat guard, which article holds too.
// dead: every arm 0%: all tie, whatever fired.
const { runs, summary } = sweep([
  cell('plain', 'none', 8),
  cell('plain', 'article', 18),
  cell('plain', 'all', 14, { 'agent.loop.detected': 30 }),
  cell('outage', 'none', 2),
  cell('outage', 'article', 4),
  cell('outage', 'all', 18, { 'agent.model.retry': 50, 'agent.loop.detected': 4, 'agent.repeat.blocked': 3 }),
  cell('shared', 'none', 6),
  cell('shared', 'article', 8),
  cell('shared', 'all', 11, { 'agent.repeat.blocked': 12 }),
  cell('dead', 'none', 0),
  cell('dead', 'article', 0),
  cell('dead', 'all', 0, { 'agent.model.retry': 9, 'agent.loop.detected': 9 }),
]);

describe('scenarioMix', () => {
  const mix = scenarioMix(runs, summary, 'none', new Set(['plain', 'outage', 'shared', 'dead']));

  it('counts on how many scenarios each arm is best, and where every arm ties', () => {
    expect(mix.best).toEqual([
      { arm: 'none', best: 0, tiedBest: 1 },
      { arm: 'article', best: 1, tiedBest: 1 },
      { arm: 'all', best: 2, tiedBest: 1 },
    ]);
    expect(mix.allTied).toEqual(['dead']);
  });

  it('a showcase is a scenario the arm wins with events of a guard no other arm holds', () => {
    // Not plain (all does not win), not shared (repeat is article's too), not dead (all tie).
    expect(mix.showcases).toEqual([{ scenario: 'outage', arm: 'all', guards: ['recover', 'loops'], events: 54 }]);
  });

  it('gives the answer without the showcase scenarios, and the scenarios whose leaving out changes the top arm', () => {
    // With every scenario: all (43 of 80) over article (30 of 80). Without outage: article 26 of 60, all 25 of 60.
    expect(recommend(runs, summary).arms[0]?.arm).toBe('all');
    expect(mix.withoutShowcases).toMatchObject({
      scenarios: ['plain', 'shared', 'dead'],
      top: 'article',
    });
    expect(mix.withoutShowcases?.rate).toBeCloseTo(26 / 60, 4);
    expect(mix.withoutShowcases?.gain?.pooled).toBeCloseTo((10 + 2 + 0) / 3 / RUNS, 12);
    expect(mix.leaveOneOut).toEqual([{ scenario: 'outage', top: 'article' }]);
  });

  it('is part of the answer, and said in words beside the recommendation', () => {
    const answer = recommend(runs, summary);
    expect(answer.mix).toEqual(mix);
    expect(mixSentences(answer)).toEqual([
      'Best or tied best, of 4 scenarios: all 3 (1 tied), article 2 (1 tied), none 1 (1 tied). Every arm scores the same on dead.',
      'Showcase scenarios (1 of 4: the best arm there recorded events of a guard no other arm holds): outage (all: recover, loops); ' +
        'without them (3 scenarios), article is on top (43.3%), +20.0 pts over none [+11.1, +28.9], one model: not assessed, not all.',
      'Leave-one-scenario-out: all is not on top without outage (then article).',
    ]);
  });

  it('finds no showcase when no arm holds a guard of its own, and says nothing of a mix for one scenario', () => {
    const twin = sweep([
      cell('plain', 'none', 8),
      cell('plain', 'article', 18),
      cell('outage', 'none', 2),
      cell('outage', 'article', 4),
    ]);
    const twinSummary = { ...twin.summary, arms: ARMS.slice(0, 2) };
    const twinMix = scenarioMix(twin.runs, twinSummary, 'none', new Set(['plain', 'outage']));
    expect(twinMix.showcases).toEqual([]);
    expect(twinMix.withoutShowcases).toBeUndefined();
    const one = sweep([cell('plain', 'none', 8), cell('plain', 'all', 18, { 'agent.model.retry': 5 })]);
    expect(mixSentences(recommend(one.runs, { ...one.summary, arms: [ARMS[0]!, ARMS[2]!] }))).toEqual([]);
  });
});
