import { describe, expect, it } from 'vitest';
import { fSurvival, regularizedBeta, studentTCdf, studentTQuantile } from './distributions.js';

// Reference values from SciPy 1.17 (scipy.special.betainc, scipy.stats.t, scipy.stats.f, scipy.stats.chi2).

describe('regularizedBeta', () => {
  it('matches closed forms and SciPy', () => {
    // I_0.5(2, 3) = Σ_{j=2}^{4} C(4, j) / 16 = (6 + 4 + 1) / 16
    expect(regularizedBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 14);
    expect(regularizedBeta(0.1, 0.5, 0.5)).toBeCloseTo(0.20483276469913345, 13);
    expect(regularizedBeta(0.6, 50, 40)).toBeCloseTo(0.8011534179744884, 12);
    expect(regularizedBeta(0, 2, 3)).toBe(0);
    expect(regularizedBeta(1, 2, 3)).toBe(1);
  });

  it('refuses arguments outside its domain', () => {
    expect(() => regularizedBeta(1.5, 1, 1)).toThrow(RangeError);
    expect(() => regularizedBeta(0.5, 0, 1)).toThrow(RangeError);
  });
});

describe('Student t', () => {
  it.each([
    [1, 12.706204736174694],
    [2, 4.302652729749462],
    [3, 3.1824463052837078],
    [5, 2.5705818356363146],
    [7, 2.364624251592784],
    [28, 2.0484071417952454],
    [29, 2.045229642132703],
    [100, 1.9839715185235518],
  ])('the 97.5%% quantile with %i df is SciPy’s', (df, expected) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 10);
    expect(studentTQuantile(0.025, df)).toBeCloseTo(-expected, 10);
    expect(studentTCdf(expected, df)).toBeCloseTo(0.975, 12);
  });

  it('has the CDF SciPy has, on both sides, with fractional df', () => {
    expect(studentTCdf(-1.3, 4.5)).toBeCloseTo(0.128098043972017, 12);
    expect(studentTCdf(3.2, 2)).toBeCloseTo(0.9573295603800236, 12);
    expect(studentTCdf(0, 3)).toBe(0.5);
    expect(studentTQuantile(0.5, 3)).toBe(0);
  });
});

describe('fSurvival', () => {
  it('is the p-value SciPy gives', () => {
    expect(fSurvival(2.5, 4, 20)).toBeCloseTo(0.07514662963527473, 12);
    expect(fSurvival(1.1, 29, 450)).toBeCloseTo(0.3316588634905234, 12);
    expect(fSurvival(3.0, 7, 100)).toBeCloseTo(0.006685915904656252, 12);
    expect(fSurvival(0.3, 2, 8)).toBeCloseTo(0.7488005297763748, 12);
  });

  it('with infinite denominator df is the χ² test: Q = 40 on 29 df, and χ²₁ = 2', () => {
    expect(fSurvival(40 / 29, 29, Infinity)).toBeCloseTo(0.0839368984915183, 12);
    expect(fSurvival(2, 1, Infinity)).toBeCloseTo(0.15729920705028105, 12);
  });

  it('is 1 at and below 0', () => {
    expect(fSurvival(0, 3, 10)).toBe(1);
  });
});
