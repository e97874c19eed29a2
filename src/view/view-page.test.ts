import { describe, expect, it } from 'vitest';
import { VIEW_CSS } from './view-page.js';

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const linear = (c: number) => (c <= 0.039_28 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe("the viewer's colours", () => {
  it('give every text colour at least 4.5:1 against both page backgrounds (WCAG AA)', () => {
    const colours = Object.fromEntries(
      [...VIEW_CSS.matchAll(/--([a-z]+): (#[0-9a-f]{6})/g)].map((match) => [match[1]!, match[2]!]),
    );
    const backgrounds = [colours['bg']!, colours['soft']!];
    const texts = ['ink', 'muted', 'good', 'bad', 'harm', 'esc', 'focus'];
    expect(Object.keys(colours)).toEqual(expect.arrayContaining([...texts, 'bg', 'soft']));
    for (const text of texts)
      for (const background of backgrounds)
        expect(contrast(colours[text]!, background), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
  });
});
