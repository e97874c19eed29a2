import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../results/sweep-fixture.test-helpers.js';
import type { StoredSummary } from '../results/summary-schema.js';
import type { RunTable } from './run-table.js';
import { diffSweeps } from './sweep-diff.js';

/** A side whose runs are never read: the diff says why before it pairs any seed. */
const side = (summary: StoredSummary, arm?: string) => ({
  name: 'x',
  summary,
  table: { size: 0, at: () => undefined } as unknown as RunTable,
  ...(arm === undefined ? {} : { arm }),
});
const cells = [{ scenario: 's1', arm: 'none', runs: 10 }];

describe('diffSweeps: when seeds are not compared, it says why', () => {
  it('refuses ensembles whose seeds start elsewhere: seed s is another member in each', () => {
    const ensemble = { name: 'default', members: 40, hash: 'h' };
    const from = (base: number) => fixtureSummary(cells, 10, { ensemble, seeds: { base, count: 10 } });
    expect(diffSweeps(side(from(1)), side(from(21))).unpaired).toMatch(
      /seeds start at 1 and 21, so a seed is played by another member/,
    );
  });

  it('says so when the sides share no cell, or no seed', () => {
    const other = fixtureSummary([{ scenario: 's2', arm: 'none', runs: 10 }]);
    expect(diffSweeps(side(fixtureSummary(cells)), side(other)).unpaired).toBe(
      'the sweeps share no (scenario, arm) cell',
    );
    const later = fixtureSummary(cells, 10, { seeds: { base: 1000, count: 10 } });
    expect(diffSweeps(side(fixtureSummary(cells)), side(later)).unpaired).toBe(
      'the sweeps share no seed (1–10 and 1000–1009)',
    );
  });
});
