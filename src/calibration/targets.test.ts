import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { band, DEFAULT_TOLERANCES, distance, parseTargets, parseTolerances, reportedTargets } from './targets.js';

function problems(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    if (error instanceof UserInputError) return error.message.split('\n');
    throw error;
  }
  throw new Error('accepted');
}

const published = { median_calls: 12, p95_calls: 89, success: 0.64, median_input_tokens: 18_400 };

describe('parseTargets', () => {
  it('reads any subset of the four targets', () => {
    expect(parseTargets(['median_calls=12', 'p95_calls=89', 'success=0.64', 'median_input_tokens=18400'])).toEqual(
      published,
    );
    expect(parseTargets(['success=0.5'])).toEqual({ success: 0.5 });
    expect(parseTargets([' success = 1e-1 '])).toEqual({ success: 0.1 });
  });

  it('names the flag, the field and what was expected, for every bad pair at once', () => {
    expect(problems(() => parseTargets(['median_tokens=3', 'success=64', 'p95_calls=lots', 'median_calls']))).toEqual([
      '--target: median_tokens: one of median_calls, p95_calls, success, median_input_tokens, identical_consecutive, after_good_identical, after_permanent_identical, after_transient_identical, long_run_repeat_share',
      '--target: success: a share of successful runs from 0 to 1 (0.64 for 64%), got 64',
      "--target: p95_calls: a number, got 'lots'",
      '--target: median_calls: name=value, e.g. median_calls=12',
    ]);
    expect(problems(() => parseTargets(['success=-0.1']))).toEqual([
      '--target: success: a share of successful runs from 0 to 1 (0.64 for 64%), got -0.1',
    ]);
    expect(problems(() => parseTargets(['median_calls=0']))).toEqual([
      '--target: median_calls: a number above 0 (the median_calls), got 0',
    ]);
    expect(problems(() => parseTargets(['success=0.5', 'success=0.6']))).toEqual([
      '--target: success: each name once; it is given twice',
    ]);
    expect(problems(() => parseTargets(['median_calls=12', 'p95_calls=8']))).toEqual([
      '--target: p95_calls: at least median_calls (12), got 8',
    ]);
    expect(problems(() => parseTargets(['median_calls=Infinity']))).toEqual([
      "--target: median_calls: a number, got 'Infinity'",
    ]);
  });
});

describe('parseTolerances', () => {
  it('sets the named bands and keeps the defaults of the others', () => {
    expect(parseTolerances(['median_calls=1.5', 'success=0.05'])).toEqual({
      ...DEFAULT_TOLERANCES,
      median_calls: 1.5,
      success: 0.05,
    });
  });

  it('refuses a ratio of 1 or less and a difference outside (0, 1]', () => {
    expect(problems(() => parseTolerances(['p95_calls=0.9', 'success=2']))).toEqual([
      '--tolerance: p95_calls: a ratio above 1 (1.2: within 20% either way), got 0.9',
      '--tolerance: success: a difference above 0 and at most 1 (0.09: 9 points either way), got 2',
    ]);
  });
});

describe('distance', () => {
  it('is the largest deviation in tolerances: log ratios for counts, differences for success', () => {
    const at = { median_calls: 12, p95_calls: 89, success: 0.64, median_input_tokens: 18_400 };
    expect(distance(at, published, DEFAULT_TOLERANCES)).toBe(0);
    // 14.4 is 12 × 1.2: the edge of the median's band.
    expect(distance({ ...at, median_calls: 14.4 }, published, DEFAULT_TOLERANCES)).toBeCloseTo(1, 12);
    expect(distance({ ...at, median_calls: 10 }, published, DEFAULT_TOLERANCES)).toBeCloseTo(1, 12);
    expect(distance({ ...at, success: 0.55 }, published, DEFAULT_TOLERANCES)).toBeCloseTo(1, 12);
    expect(distance({ ...at, success: 0.82 }, published, DEFAULT_TOLERANCES)).toBeCloseTo(2, 12);
    // ln(89 × 1.35² / 89) / ln(1.35) = 2, and it outweighs the median's 1.
    expect(
      distance({ ...at, median_calls: 14.4, p95_calls: 89 * 1.35 ** 2 }, published, DEFAULT_TOLERANCES),
    ).toBeCloseTo(2, 12);
    expect(distance({ ...at, median_calls: 0 }, published, DEFAULT_TOLERANCES)).toBe(Number.POSITIVE_INFINITY);
  });

  it('reads only the statistics that are targets', () => {
    expect(distance({ ...published, p95_calls: 1000 }, { success: 0.64 }, DEFAULT_TOLERANCES)).toBe(0);
  });

  it("gives README's calibration bands by default", () => {
    expect(band('median_calls', 12, DEFAULT_TOLERANCES.median_calls)).toEqual([10, 14.399999999999999]);
    expect(band('success', 0.64, DEFAULT_TOLERANCES.success).map((x) => Number(x.toFixed(6)))).toEqual([0.55, 0.73]);
    expect(band('median_input_tokens', 18_400, 1.25)).toEqual([14_720, 23_000]);
  });
});

describe('behaviour targets', () => {
  it('reads them as shares from 0 to 1, compared by difference', () => {
    expect(parseTargets(['identical_consecutive=0.0043', 'after_permanent_identical=0.041'])).toEqual({
      identical_consecutive: 0.0043,
      after_permanent_identical: 0.041,
    });
    expect(problems(() => parseTargets(['after_good_identical=15']))).toEqual([
      '--target: after_good_identical: a share from 0 to 1 (0.04 for 4%), got 15',
    ]);
    // 0.03 is identical_consecutive's default band: 0.07 against 0.04 is at its edge.
    expect(distance({ identical_consecutive: 0.07 }, { identical_consecutive: 0.04 }, DEFAULT_TOLERANCES)).toBeCloseTo(
      1,
      12,
    );
  });

  it('puts a candidate that counted nothing (NaN) out of every band', () => {
    expect(
      distance(
        { ...published, long_run_repeat_share: Number.NaN },
        { long_run_repeat_share: 0.31 },
        DEFAULT_TOLERANCES,
      ),
    ).toBe(Number.POSITIVE_INFINITY);
  });

  it('reports the outcome figures always and a behaviour figure only when it is a target', () => {
    expect(reportedTargets({ success: 0.5 })).toEqual(['median_calls', 'p95_calls', 'success', 'median_input_tokens']);
    expect(reportedTargets({ after_transient_identical: 0.1 })).toEqual([
      'median_calls',
      'p95_calls',
      'success',
      'median_input_tokens',
      'after_transient_identical',
    ]);
  });
});
