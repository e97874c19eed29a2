import { describe, expect, it } from 'vitest';
import { prefixIds, renderChart } from './render-chart.js';

describe('renderChart', () => {
  it('renders a Vega-Lite spec to SVG in Node, with names from the data as escaped text', async () => {
    const chart = await renderChart('chart-1', 'a test chart', {
      data: {
        values: [
          { arm: '<img src=x onerror=alert(1)>', rate: 0.5 },
          { arm: 'none', rate: 0.7 },
        ],
      },
      mark: 'bar',
      encoding: { y: { field: 'arm', type: 'nominal' }, x: { field: 'rate', type: 'quantitative' } },
    });
    expect(chart.svg).toMatch(/^<svg [^>]*class="marks" width="\d+" height="\d+"/);
    expect(chart.svg).toContain('>&lt;img src=x onerror=');
    expect(chart.svg).not.toContain('<img');
    expect(chart.spec).toMatchObject({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', mark: 'bar' });
    expect(chart.warnings).toEqual([]);
  });

  it('keeps what vega warns about instead of printing it', async () => {
    const chart = await renderChart('chart-2', 'bad', {
      data: { values: [{ a: 1 }] },
      mark: 'bar',
      encoding: {
        x: { field: 'a', type: 'quantitative' },
        y: { field: 'a', type: 'quantitative', scale: { type: 'nonsense' as 'linear' } },
      },
    });
    expect(chart.warnings.length).toBeGreaterThan(0);
  });
});

describe('prefixIds', () => {
  it('renumbers the ids an SVG defines under a prefix, with its references to them, and nothing else', () => {
    const svg =
      '<svg><g clip-path="url(#clip7)" fill="url(#gradient_12)"><a xlink:href="#run-1"><path/></a></g><defs><clipPath id="clip7"><rect/></clipPath><linearGradient id="gradient_12"/></defs></svg>';
    expect(prefixIds(svg, 'chart-3-')).toBe(
      '<svg><g clip-path="url(#chart-3-1)" fill="url(#chart-3-2)"><a xlink:href="#run-1"><path/></a></g><defs><clipPath id="chart-3-1"><rect/></clipPath><linearGradient id="chart-3-2"/></defs></svg>',
    );
  });
});
