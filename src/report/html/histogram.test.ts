import { describe, expect, it } from 'vitest';
import { countEdges, histogram, logEdges, sortedCopy, survival } from './histogram.js';

describe('countEdges', () => {
  it('has a bin per count up to 10, then round edges, the last at or above the maximum', () => {
    expect(countEdges(14)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15]);
    expect(countEdges(250)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250,
    ]);
    expect(countEdges(0)).toEqual([0]);
  });
});

describe('logEdges', () => {
  it('spans the values with about ten edges a decade, starting just below the smallest', () => {
    expect(logEdges(500, 2_100)).toEqual([400, 500, 600, 800, 1000, 1250, 1500, 2000, 2500]);
    expect(logEdges(1000, 1000)).toEqual([800, 1000]);
  });
});

describe('histogram', () => {
  it('counts whole numbers into right-closed bins drawn ±0.5 around the values they hold', () => {
    const values = sortedCopy([3, 1, 11, 12, 13, 15, 15, 16, 250]);
    expect(histogram(values, [0, 1, 2, 3, 10, 12, 15, 20], { whole: true })).toEqual([
      { lower: 1, upper: 1, start: 0.5, end: 1.5, count: 1 },
      { lower: 3, upper: 3, start: 2.5, end: 3.5, count: 1 },
      { lower: 11, upper: 12, start: 10.5, end: 12.5, count: 2 },
      { lower: 13, upper: 15, start: 12.5, end: 15.5, count: 3 },
      // The last bin takes what lies above the last edge.
      { lower: 16, upper: 250, start: 15.5, end: 250.5, count: 2 },
    ]);
  });

  it('counts continuous values into (previous edge, edge] and leaves empty bins out', () => {
    const values = sortedCopy([450, 500, 501, 2_000]);
    expect(histogram(values, [400, 500, 600, 800, 1000, 2000])).toEqual([
      { lower: 400, upper: 500, start: 400, end: 500, count: 2 },
      { lower: 500, upper: 600, start: 500, end: 600, count: 1 },
      { lower: 1000, upper: 2000, start: 1000, end: 2000, count: 1 },
    ]);
  });

  it('puts every value in exactly one bin', () => {
    const values = sortedCopy(Array.from({ length: 1000 }, (_, i) => (i * 7919) % 251));
    const bins = histogram(values, countEdges(250), { whole: true });
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(1000);
  });
});

describe('survival', () => {
  it('is the share of values at or above each point, up to the largest value', () => {
    expect(survival(sortedCopy([1, 2, 2, 5]), [0, 2, 3, 5, 6, 10])).toEqual([
      { at: 0, share: 1 },
      { at: 2, share: 0.75 },
      { at: 3, share: 0.25 },
      { at: 5, share: 0.25 },
    ]);
  });
});
