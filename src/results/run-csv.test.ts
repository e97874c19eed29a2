import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, CSV_HEADER, type CsvValue, csvLine, csvRows, csvValues } from './run-csv.js';
import { fixtureRun } from './sweep-fixture.test-helpers.js';

/** Text CSV must quote, or must leave alone: separators, quotes, line breaks, formula-like and non-ASCII starts. */
const PIECES = [
  '',
  'a',
  ' ',
  ',',
  '"',
  '""',
  '\n',
  '\r',
  '\r\n',
  "'",
  '=1+1',
  '-3',
  '@x',
  '\t',
  'é',
  '💥',
  '0',
  'null',
];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, 12.345, Number.NaN];

/** A small seeded generator (the test's own: its values only need to vary, and repeat run to run). */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('runs.csv lines', () => {
  it('are the bytes csv-stringify writes with its defaults, for every kind of field', () => {
    const next = numbers(7);
    const text = () =>
      Array.from({ length: Math.floor(next() * 5) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
    for (let i = 0; i < 2_000; i++) {
      const values: CsvValue[] = Array.from({ length: 1 + Math.floor(next() * 6) }, () => {
        const pick = next();
        if (pick < 0.1) return undefined;
        if (pick < 0.15) return null;
        if (pick < 0.4) return NUMBERS[Math.floor(next() * NUMBERS.length)]!;
        return text();
      });
      expect(csvLine(values), JSON.stringify(values)).toBe(stringify([values]));
    }
  });

  it('hold records as csv-stringify would: quoted reasons, JSON escalations and journals, missing model faults', () => {
    const records = [
      fixtureRun(),
      fixtureRun({
        verdict_reason: 'wrote "x", then\nstopped',
        escalation: { reason: 'a, "b"' },
        model_faults: undefined,
      }),
      fixtureRun({ journal: { entries: 2 }, arm: 'my,arm', cost_usd: 1e-7 }),
    ];
    expect(csvRows(records)).toBe(stringify(records.map(csvValues)));
    expect(csvRows(records).match(/""b\\""/g)).toHaveLength(1);
    expect(CSV_HEADER).toBe(stringify([CSV_COLUMNS]));
  });
});
