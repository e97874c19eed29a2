/**
 * HTML that is safe to put in the page as it is: markup this module built, or text it
 * escaped. Anything else that reaches the page goes through `escapeHtml` first.
 */
export class SafeHtml {
  readonly #markup: string;

  constructor(markup: string) {
    this.#markup = markup;
  }

  toString(): string {
    return this.#markup;
  }
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * The one escaping function of the report: text from results files (scenario and arm
 * names, model replies, tool results, verdict reasons) becomes inert text in element
 * content and in quoted attribute values alike.
 *
 * @example
 * escapeHtml('<img src=x onerror=alert(1)>') // '&lt;img src=x onerror=alert(1)&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ENTITIES[char] ?? char);
}

/** A value for the page: escaped text, or SafeHtml as it is; arrays are joined, nothing renders nothing. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A tagged template that escapes every interpolation unless it is SafeHtml, so markup is
 * written as markup and data can only ever be text.
 *
 * @example
 * html`<td>${scenario.id}</td>` // the id escaped
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Markup from a trusted producer (vega's SVG renderer, the page's own stylesheet). */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` become \u escapes,
 * so no string in the data can close the element (`</script>`) or open a comment, and
 * U+2028/U+2029 are escaped too. JSON.parse reads back the same value.
 */
export function jsonInScript(value: unknown): SafeHtml {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return new SafeHtml(json);
}
