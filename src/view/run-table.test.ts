import { describe, expect, it } from 'vitest';
import { openFinishedSweep, readRuns } from '../results/results-reader.js';
import type { StoredRun } from '../results/run-record-schema.js';
import { indexRuns } from '../results/runs-index.js';
import { variedFolder } from '../results/sweep-fixture.test-helpers.js';
import { type RunQuery, type RunRow, RunTable, rowOf } from './run-table.js';

/** The page a query should give, worked out on the records themselves: the table's yardstick. */
function expectedPage(runs: readonly StoredRun[], query: RunQuery): { total: number; seeds: string[] } {
  const rows = runs
    .map(rowOf)
    .filter(
      (row) =>
        (query.scenario === undefined || row.scenario === query.scenario) &&
        (query.arm === undefined || row.arm === query.arm) &&
        (query.verdict === undefined || row.verdict === query.verdict) &&
        (query.outcome === undefined || row.outcome === query.outcome) &&
        (query.task === undefined || row.task === query.task) &&
        (query.member === undefined || row.member === query.member) &&
        (query.fault === undefined || row.faults.includes(query.fault)) &&
        (query.event === undefined || row.events.includes(query.event)) &&
        (query.seedMin === undefined || row.seed >= query.seedMin) &&
        (query.seedMax === undefined || row.seed <= query.seedMax),
    );
  const key = query.sort ?? 'seed';
  const sign = query.descending === true ? -1 : 1;
  const value = (row: RunRow) => row[key] ?? Number.NEGATIVE_INFINITY;
  if (key !== 'seed' || query.descending === true) rows.sort((a, b) => sign * (value(a) - value(b))); // stable: ties in file order
  const offset = query.offset ?? 0;
  return { total: rows.length, seeds: rows.slice(offset, offset + (query.limit ?? 50)).map(id) };
}

const id = (row: RunRow) => `${row.scenario}/${row.arm}/${row.seed}`;

describe('RunTable', () => {
  it('filters, sorts and pages as the records themselves would, ties in file order', async () => {
    const sweep = openFinishedSweep(variedFolder());
    const runs: StoredRun[] = [];
    await readRuns(sweep, (run) => runs.push(run));
    const table = new RunTable(await indexRuns(sweep, undefined, { parts: 2 }));
    const queries: RunQuery[] = [
      {},
      { offset: 150, limit: 20 },
      { arm: 'none', verdict: 'failure', sort: 'tool_calls', descending: true },
      { scenario: 's2', sort: 'cost_usd' },
      { sort: 'cost_usd', descending: true, limit: 500 },
      { fault: 'timeout', event: 'agent.tool.retry', sort: 'input_tokens' },
      { fault: 'model:overloaded', seedMin: 10, seedMax: 30 },
      { fault: 'data:stale_read', sort: 'model_calls', descending: true },
      { task: 't3', member: 0, outcome: 'max_iterations' },
      { sort: 'seed', descending: true, offset: 3, limit: 7 },
      { arm: 'nothing' },
      { fault: 'nothing' },
    ];
    for (const query of queries) {
      const page = table.page(query);
      expect({ total: page.total, seeds: page.rows.map(id) }, JSON.stringify(query)).toEqual(expectedPage(runs, query));
      // The same query again is answered from what was kept: the same page.
      expect(table.page(query)).toEqual(page);
    }
    expect(table.choices()).toEqual({
      scenario: ['s1', 's2'],
      arm: ['article', 'none'],
      verdict: ['escalated', 'failure', 'harmful', 'success'],
      outcome: ['completed', 'max_iterations'],
      task: ['t0', 't1', 't2', 't3', 't4', 't5'],
      fault: ['data:stale_read', 'model:overloaded', 'rate_limit', 'timeout'],
      event: ['agent.tool.retry', 'agent_run.started'],
      member: ['0', '1', '2'],
    });
    const at = table.find('s2', 'article', 17);
    expect(table.rows([at])[0]).toMatchObject({ scenario: 's2', arm: 'article', seed: 17 });
    expect(table.find('s2', 'article', 99)).toBe(-1);
  });
});
