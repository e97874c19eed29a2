import { describe, expect, it } from 'vitest';
import { armColors, VERDICT_COLORS } from './palette.js';

/** Hue in degrees and saturation from 0 to 1 of a #rrggbb colour. */
function hueOf(hex: string): { hue: number; saturation: number } {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  const saturation = max === 0 ? 0 : chroma / max;
  if (chroma === 0) return { hue: 0, saturation };
  const sector = max === r ? ((g - b) / chroma + 6) % 6 : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  return { hue: sector * 60, saturation };
}

const hueDistance = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

describe('arm colours', () => {
  const arms = armColors(Array.from({ length: 12 }, (_, i) => `arm-${i}`));

  it('are twelve distinct colours before they cycle', () => {
    expect(new Set(arms).size).toBe(12);
  });

  it('never take a verdict colour: no arm is red, orange, amber or green', () => {
    // The verdicts' hues (success green, escalated amber, harmful red), 25 degrees either side.
    const verdictHues = VERDICT_COLORS.map(hueOf).filter((colour) => colour.saturation > 0.3);
    expect(verdictHues).toHaveLength(3);
    const clashes = arms.filter((colour) => {
      const { hue, saturation } = hueOf(colour);
      return saturation > 0.3 && verdictHues.some((verdict) => hueDistance(hue, verdict.hue) < 25);
    });
    expect(clashes).toEqual([]);
    // Nothing between red and green either: orange and yellow read as warnings.
    expect(arms.filter((colour) => hueOf(colour).saturation > 0.3 && hueOf(colour).hue < 150)).toEqual([]);
  });
});
