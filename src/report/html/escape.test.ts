import { describe, expect, it } from 'vitest';
import { escapeHtml, html, jsonInScript, trusted } from './escape.js';

describe('escapeHtml', () => {
  it('turns every character that could open markup or leave an attribute into an entity', () => {
    expect(escapeHtml(`<img src=x onerror=alert(1)>`)).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`a & b "c" 'd' \`e\``)).toBe('a &amp; b &quot;c&quot; &#39;d&#39; &#96;e&#96;');
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeHtml('fetch-transform-write · τ-bench → ok')).toBe('fetch-transform-write · τ-bench → ok');
  });
});

describe('html', () => {
  it('escapes every interpolated value, in content and in attributes', () => {
    const name = `"><script>alert(1)</script>`;
    expect(html`<td title="${name}">${name}</td>`.toString()).toBe(
      '<td title="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>',
    );
  });

  it('keeps markup built with html or marked trusted, joins arrays and renders nothing for null, undefined and false', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}${trusted('<br>')}`.toString()).toBe(
      '<ul><li>&lt;a&gt;</li><li>b</li></ul>0<br>',
    );
  });
});

describe('jsonInScript', () => {
  it('cannot close its script element or open a comment, and reads back as the same value', () => {
    const value = { scenario: '</script><script>alert(1)</script>', note: '<!-- & -->', line: 'a\u2028b\u2029c' };
    const text = jsonInScript(value).toString();
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(text)).toEqual(value);
  });
});
