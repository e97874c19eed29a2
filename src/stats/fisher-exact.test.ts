import { describe, expect, it } from 'vitest';
import { fisherExact } from './fisher-exact.js';

describe('fisherExact', () => {
  it('sums the tables no more likely than the observed one (hand computation)', () => {
    // Margins 4/4 and 4/4, n = 8: P(x) = C(4,x)·C(4,4−x)/C(8,4) = 1, 16, 36, 16, 1 (/70) for x = 0..4.
    // Observed x = 3 (16/70); tables with P ≤ 16/70: x = 0, 1, 3, 4 → 34/70 = 0.485714… (R: 0.4857).
    expect(
      fisherExact([
        [3, 1],
        [1, 3],
      ]),
    ).toBeCloseTo(34 / 70, 12);
  });

  it('is 2/C(20,10) for a perfect 10/10 split', () => {
    // Only x = 0 and x = 10 are as unlikely as the observed table: 2/184756 = 1.0825e-5 (R: 1.083e-05).
    expect(
      fisherExact([
        [10, 0],
        [0, 10],
      ]),
    ).toBeCloseTo(2 / 184_756, 15);
  });

  it('matches SciPy on asymmetric and large tables', () => {
    // scipy.stats.fisher_exact(...)[1], SciPy 1.17.1
    expect(
      fisherExact([
        [7, 3],
        [2, 8],
      ]),
    ).toBeCloseTo(0.06977851869492736, 12);
    expect(
      fisherExact([
        [1, 9],
        [11, 3],
      ]),
    ).toBeCloseTo(0.0027594561852200836, 12);
    // 640/1000 vs 490/1000: compared relatively, the p-value is tiny.
    expect(
      fisherExact([
        [640, 360],
        [490, 510],
      ]) / 1.652269711653629e-11,
    ).toBeCloseTo(1, 6);
    expect(
      fisherExact([
        [270, 30],
        [195, 105],
      ]) / 1.4269040185841793e-13,
    ).toBeCloseTo(1, 6);
  });

  it('is symmetric in rows and columns', () => {
    const p = fisherExact([
      [7, 3],
      [2, 8],
    ]);
    expect(
      fisherExact([
        [2, 8],
        [7, 3],
      ]),
    ).toBeCloseTo(p, 14);
    expect(
      fisherExact([
        [7, 2],
        [3, 8],
      ]),
    ).toBeCloseTo(p, 14);
  });

  it('is 1 when the margins leave one possible table or nothing differs', () => {
    expect(
      fisherExact([
        [0, 5],
        [0, 5],
      ]),
    ).toBe(1);
    expect(
      fisherExact([
        [0, 0],
        [0, 0],
      ]),
    ).toBe(1);
    expect(
      fisherExact([
        [5, 5],
        [5, 5],
      ]),
    ).toBeCloseTo(1, 12);
  });

  it('rejects counts that are not whole and non-negative', () => {
    expect(() =>
      fisherExact([
        [1.5, 2],
        [3, 4],
      ]),
    ).toThrow(RangeError);
    expect(() =>
      fisherExact([
        [-1, 2],
        [3, 4],
      ]),
    ).toThrow(RangeError);
  });
});
