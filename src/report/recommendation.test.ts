import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../results/sweep-fixture.test-helpers.js';
import type { StoredSummary } from '../results/summary-schema.js';
import { renderAnswer } from './answer-table.js';
import { renderMarkdownSummary } from './markdown-summary.js';
import { renderCellTables, renderScenarioMatrix } from './terminal-table.js';
import { conclusionsOf } from './run-conclusions.js';
import { answerSection } from './html/answer-section.js';
import type { SweepCell, SweepRuns } from './read-sweep.js';
import { recommend, scenarioEffects } from './recommendation.js';
import { armSentences, pickSentence, robustnessNote } from './recommendation-text.js';

const MEMBERS = 30;
const SEEDS = 300;

/**
 * A cell of 300 runs, seed s played by member (s − 1) mod 30. Run i succeeds when
 * `right(member, within)` says so (within: the run's index inside its member, 0..9).
 */
function cell(
  scenario: string,
  arm: string,
  right: (member: number, within: number) => boolean,
  shape: {
    calls?: (i: number) => number;
    harmful?: (within: number) => boolean;
    members?: number;
    events?: Record<string, number>;
    costUsd?: number;
  } = {},
): SweepCell {
  const members = shape.members ?? MEMBERS;
  const member = (i: number) => i % members;
  const within = (i: number) => Math.floor(i / members);
  const outcome = Uint8Array.from({ length: SEEDS }, (_, i) => (right(member(i), within(i)) ? 1 : 0));
  const calls = Float64Array.from({ length: SEEDS }, (_, i) => shape.calls?.(i) ?? 5 + (i % 7));
  return {
    scenario,
    arm,
    impossible: false,
    trials: SEEDS,
    successes: outcome.reduce((sum, x) => sum + x, 0),
    escalated: 0,
    toolCalls: calls,
    inputTokens: calls.map((c) => 1000 * c),
    outputTokens: calls.map((c) => 100 * c),
    seeds: Float64Array.from({ length: SEEDS }, (_, i) => i + 1),
    members: Int32Array.from({ length: SEEDS }, (_, i) => member(i)),
    right: outcome,
    harmful: Uint8Array.from({ length: SEEDS }, (_, i) => (shape.harmful?.(within(i)) === true ? 1 : 0)),
    events: shape.events ?? {},
    costUsd: shape.costUsd ?? null,
  };
}

function sweep(cells: SweepCell[], ensemble = true): { runs: SweepRuns; summary: StoredSummary } {
  const summary = fixtureSummary(
    cells.map((c) => ({ scenario: c.scenario, arm: c.arm, runs: c.trials })),
    SEEDS,
    ensemble ? { ensemble: { name: 'default', members: MEMBERS, hash: 'h' } } : {},
  );
  const arms = [...new Set(cells.map((c) => c.arm))];
  return {
    summary: {
      ...summary,
      arms: arms.map((name) => ({ name, guards: name === 'none' ? [] : [{ guard: name }] })),
    },
    runs: {
      path: 'x',
      runsFile: 'x/runs.jsonl',
      runs: cells.length * SEEDS,
      cells,
      models: ['simulated'],
      ensemble: ensemble ? { name: 'default', members: MEMBERS, hash: 'h' } : undefined,
      shard: null,
      scenarioHashes: new Map(),
    },
  };
}

// none: 40% on every member, and its last run of each member harmful (10%). good: 80% on every member.
// split: 80% on even members, 0% on odd ones.
const none = (s: string) => cell(s, 'none', (_m, w) => w < 4, { harmful: (w) => w === 9 });
const good = (s: string) => cell(s, 'good', (_m, w) => w < 8, { calls: (i) => 8 + (i % 9) });
const split = (s: string) => cell(s, 'split', (m, w) => m % 2 === 0 && w < 8, { calls: (i) => 3 + (i % 3) });

describe('recommend', () => {
  const { runs, summary } = sweep([none('a'), good('a'), split('a'), none('b'), good('b'), split('b')]);
  const answer = recommend(runs, summary);

  it('ranks the arms as the arena leaderboard does and pools each over the scenarios', () => {
    expect(answer.arms.map((arm) => [arm.rank, arm.arm])).toEqual([
      [1, 'good'],
      [2, 'split'],
      [3, 'none'],
    ]);
    const [top] = answer.arms;
    expect(top?.rightOutcome).toMatchObject({ successes: 480, trials: 600, rate: 0.8 });
    expect(answer.arms.find((arm) => arm.arm === 'none')?.harmful).toBe(60);
    expect(answer.baseline).toBe('none');
    expect(answer.members).toBe(30);
  });

  it('estimates the cost per right outcome from the tokens at the simulated model’s list price', () => {
    // good: calls 8 + (i % 9), mean 12 (300 = 33 full cycles of 9 plus 3 runs of 8, 9, 10) ...
    const top = answer.arms[0]!;
    const calls = runs.cells.filter((c) => c.arm === 'good').flatMap((c) => [...c.toolCalls]);
    const total = calls.reduce((sum, c) => sum + c, 0);
    // ... priced at $3 / $15 per million input / output tokens: 1000 and 100 tokens a call.
    const dollars = (total * 1000 * 3 + total * 100 * 15) / 1_000_000;
    expect(top.costPerSuccess).toBeCloseTo(dollars / 480, 12);
  });

  it("prices each run as its record does, where records carry their cost (a fallback at the fallback's price)", () => {
    const right = (member: number) => member < 20;
    const priced = sweep([
      cell('s', 'none', () => false, { costUsd: 1 }),
      cell('s', 'recover', right, { costUsd: 2 }),
      cell('s', 'rollback', right, { costUsd: 4 }),
    ]);
    const answer = recommend(priced.runs, priced.summary);
    const perSuccess = (arm: string) => answer.arms.find((entry) => entry.arm === arm)?.costPerSuccess;
    const successes = priced.runs.cells.find((c) => c.arm === 'recover')!.successes;
    expect(perSuccess('recover')).toBeCloseTo(2 / successes, 12);
    expect(perSuccess('rollback')).toBeCloseTo(4 / successes, 12);
  });

  it('labels a gain on every member robust, and a gain on half of them depends on the model', () => {
    const byArm = new Map(answer.arms.map((arm) => [arm.arm, arm]));
    expect(byArm.get('good')?.vsBaseline?.success).toMatchObject({ label: 'robust', members: 30 });
    expect(byArm.get('good')?.vsBaseline?.success.pooled).toBeCloseTo(0.4, 12);
    expect(byArm.get('split')?.vsBaseline?.success.label).toBe('depends-on-model');
    expect(byArm.get('none')?.vsBaseline).toBeNull();
    const effects = scenarioEffects(runs, 'none');
    expect([...effects.keys()]).toHaveLength(4);
  });

  it('says in words what each arm buys, where it costs and how sure we are', () => {
    const sentences = new Map(armSentences(answer).map(({ arm, text }) => [arm, text]));
    // good: 40% → 80% on every member of both scenarios; more calls (8 + i % 9 against 5 + i % 7); no harmful run.
    // By hand: in each member and scenario d = 1 on 4 runs of 10, s² = 0.4 · 0.6 · 10/9 = 0.2667, v = 0.02667;
    // averaged over 2 scenarios v = 0.01333; members identical, so τ² = 0 and SE = √(1 / (30 / 0.01333)) = 0.02108;
    // CI = 0.4 ± t(29) · 0.02108 = 0.4 ± 2.04523 · 0.02108 = [0.357, 0.443].
    expect(sentences.get('good')).toBe(
      'Buys +40.0 pts success over none [+35.7, +44.3], averaged over 2 scenarios (most on a +40.0 pts, b +40.0 pts); ' +
        'fewer harmful runs: 60 → 0. Costs more tool calls: +4.0 calls per run (p95 11 → 16); more input tokens: ' +
        '+3,980 tokens per run (p95 +45%). How sure: robust across the 30 models of the ensemble: pooled +40.0 pts ' +
        '[+35.7, +44.3], a new model [+35.7, +44.3].',
    );
    // split: +40 on even members, −40 on odd ones; pooled 0, so its gain and its cost are both "on some models".
    expect(sentences.get('split')).toBe(
      'Buys up to +36.8 pts success on some models; fewer tool calls: -4.0 calls per run (p95 11 → 5); fewer input ' +
        'tokens: -3,990 tokens per run (p95 -55%); fewer harmful runs: 60 → 0. Costs down to -36.8 pts success on ' +
        'other models. How sure: depends on the model: across 30 models the effect runs from -36.8 to +36.8 ' +
        '(pooled ±0.0 pts [-15.2, +15.2]; a new model [-81.3, +81.3]).',
    );
    expect(pickSentence(answer)).toMatch(
      /^Recommended: good, with the most success \(80\.0%\), a robust gain of \+40\.0 pts over none across 30 models\. Tightest tail: split/,
    );
  });

  it('never recommends an arm whose runs ended in an error: not as the top arm, the tightest tail or the cheapest', () => {
    // split's runs crash, which is why its tail is short: 'failed' outcomes in summary.json's cells.
    const crashing = {
      ...summary,
      cells: summary.cells.map((c) => (c.arm === 'split' ? { ...c, outcomes: { ...c.outcomes, failed: 3 } } : c)),
    };
    const answered = recommend(runs, crashing);
    expect(answered.arms.find((arm) => arm.arm === 'split')?.errored).toBe(6);
    expect(answered.arms.find((arm) => arm.arm === 'good')?.errored).toBe(0);
    expect(pickSentence(answered)).not.toContain('Tightest tail: split');
    // The top arm erroring too: the highest, said with its errors, never "Recommended".
    const allCrash = {
      ...summary,
      cells: summary.cells.map((c) => (c.arm === 'none' ? c : { ...c, outcomes: { ...c.outcomes, failed: 1 } })),
    };
    const sentence = pickSentence(recommend(runs, allCrash));
    expect(sentence).toMatch(
      /^Highest: good, with the most success \(80\.0%\) though 2 of its 600 runs ended in an error, /,
    );
    expect(sentence).not.toMatch(/Recommended|Tightest tail: (good|split)|Cheapest per success: (good|split)/);
    expect(sentence).toContain('Tightest tail: none');
  });

  it('with an ensemble, judges robustness on the scenarios that ran it, not on one run on a persona of its own', () => {
    const member0 = (c: SweepCell): SweepCell => ({ ...c, members: new Int32Array(SEEDS) });
    const mixed = sweep([none('a'), good('a'), none('b'), good('b'), member0(none('own')), member0(good('own'))]);
    const mixedAnswer = recommend(mixed.runs, mixed.summary);
    expect(mixedAnswer.members).toBe(MEMBERS);
    expect(mixedAnswer.ownPersonaScenarios).toEqual(['own']);
    expect(mixedAnswer.arms[0]?.vsBaseline?.success).toMatchObject({ label: 'robust', members: MEMBERS });
    expect(renderAnswer(mixedAnswer)).toContain('ran a persona of their own (own)');
  });

  it('with an ensemble that no scenario played, says so rather than asking for --ensemble', () => {
    const member0 = (c: SweepCell): SweepCell => ({ ...c, members: new Int32Array(SEEDS) });
    const own = sweep([none('own'), good('own')].map(member0));
    const ownAnswer = recommend(own.runs, own.summary);
    expect(ownAnswer.members).toBe(1);
    expect(robustnessNote(ownAnswer)).toMatch(/^Robustness across models: not assessed: ensemble default played fewer/);
  });

  it('without an ensemble, says it is one model before it recommends anything', () => {
    const member0 = (c: SweepCell): SweepCell => ({ ...c, members: new Int32Array(SEEDS) });
    const one = sweep([none('a'), good('a')].map(member0), false);
    const oneAnswer = recommend(one.runs, one.summary);
    expect(oneAnswer.members).toBe(1);
    expect(oneAnswer.arms[0]?.vsBaseline?.success).toMatchObject({ label: 'one-model', significant: true });
    expect(pickSentence(oneAnswer)).toMatch(
      /^On one model only \(how it holds across models is not assessed\), recommended: good, .* on its seeds\./,
    );
    expect(renderAnswer(oneAnswer)).toMatch(/^The answer on a, on one model \(against none\):/);
    expect(armSentences(oneAnswer)[0]?.text).toContain("How sure: significant on this model's seeds (+40.0 pts [+");
    expect(renderAnswer(oneAnswer)).toContain('one model: not assessed');
  });

  it('escapes names from results files: HTML in the report, control characters on the terminal', () => {
    const evil = '<img src=x onerror=alert(1)>\u001b[2J';
    const bad = sweep([none('a'), { ...good('a'), arm: evil }]);
    const badAnswer = recommend(bad.runs, bad.summary);
    const page = answerSection(badAnswer).toString();
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    const text = renderAnswer(badAnswer);
    expect(text).not.toContain('\u001b[2J');
    expect(text).toContain('\\x1b[2J');
  });
});

describe('every table that states a difference states its robustness', () => {
  const { runs, summary } = sweep([none('a'), good('a'), split('a'), none('b'), good('b'), split('b')]);
  const conclusions = conclusionsOf(runs, summary);

  it('the run’s per-scenario tables: the difference from none with its interval and label', () => {
    const text = renderCellTables(summary.cells, { effects: conclusions.effects, baseline: 'none' });
    expect(text).toContain('Δ vs none [95% CI]');
    expect(text).toMatch(/│ good\s+│ 300 .*│ \+40\.0 pts \[\+\d+\.\d, \+\d+\.\d\] │/);
    expect(text).toMatch(/│ robust\s+│/);
    expect(text).toMatch(/│ depends on the model\s+│/);
    // The scenario × arm matrix carries the label under each arm, with an ensemble.
    const matrix = renderScenarioMatrix(summary.cells, { effects: conclusions.effects, baseline: 'none' });
    expect(matrix.match(/robust/g)).toHaveLength(2);
    expect(matrix.match(/depends on the model/g)).toHaveLength(2);
  });

  it('the Markdown summary: an across-models column, and the answer at the end', () => {
    const markdown = renderMarkdownSummary(summary, { conclusions });
    expect(markdown).toMatch(/\| Δ vs none \[95% CI\] \| across models \|/);
    expect(markdown).toMatch(/^\| good \|.*\| robust<br>new model \[\+\d+\.\d, \+\d+\.\d\] \|/m);
    expect(markdown).toMatch(/^\| split \|.*\| depends on the model<br>new model \[/m);
    const answer = markdown.slice(markdown.indexOf('### The answer across 2 scenarios'));
    expect(answer).toMatch(/^\| 1 \| good \| 80\.0% /m);
    expect(answer).toContain(
      '\nRecommended: good, with the most success (80.0%), a robust gain of +40.0 pts over none across 30 models.',
    );
    expect(answer).toContain('\n- **split**: Buys up to +36.8 pts success on some models;');
    // The summary ends with the answer.
    expect(markdown.trimEnd().endsWith('a new model [-81.3, +81.3]).')).toBe(true);
  });
});
