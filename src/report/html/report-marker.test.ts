import { describe, expect, it } from 'vitest';
import { page } from './page.js';
import { html } from './escape.js';
import { REPORT_FILE, REPORT_GENERATOR_META } from './report-marker.js';

describe('REPORT_FILE', () => {
  const report = page({ title: 'r', toc: [], header: html`<h1>r</h1>`, body: [] });

  it('knows a report of ours, and one written before the generator line', () => {
    expect(REPORT_FILE.test(report)).toBe(true);
    expect(REPORT_FILE.test(report.replace(`${REPORT_GENERATOR_META}\n`, ''))).toBe(true);
  });

  it('does not take another HTML page for one, even one that names spiralbench', () => {
    expect(REPORT_FILE.test('<!doctype html>\n<html><body><p>notes on spiralbench report</p></body></html>\n')).toBe(
      false,
    );
    expect(REPORT_FILE.test(`<p>quoted:</p>${report}`)).toBe(false);
  });
});
