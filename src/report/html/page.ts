import { html, jsonInScript, trusted, type HtmlValue, type SafeHtml } from './escape.js';
import { REPORT_GENERATOR_META } from './report-marker.js';
import type { RenderedChart } from './render-chart.js';
import { FONT_STACK } from './render-chart.js';

/** An entry of the table of contents, with its sub-entries. */
export interface TocEntry {
  readonly id: string;
  readonly title: string;
  readonly children?: readonly TocEntry[];
}

/**
 * No script may run and nothing may be fetched: the page is text, inline styles and
 * inline SVG. Even if a string escaped the escaping, the browser would refuse to run it.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
:root { --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --soft: #f8fafc; --accent: #2563eb; }
* { box-sizing: border-box; }
html { scroll-behavior: smooth; scroll-padding-top: 16px; }
body { margin: 0; font: 14px/1.5 ${FONT_STACK}; color: var(--ink); background: #f1f5f9; }
.layout { display: grid; grid-template-columns: 220px minmax(0, 1fr); max-width: 1440px; margin: 0 auto; }
nav.toc { position: sticky; top: 0; align-self: start; height: 100vh; overflow-y: auto; padding: 24px 12px 24px 20px; font-size: 13px; }
nav.toc .brand { font-weight: 700; font-size: 15px; margin-bottom: 14px; letter-spacing: -0.01em; }
nav.toc ol { list-style: none; margin: 0; padding: 0; }
nav.toc ol ol { padding-left: 12px; margin: 2px 0 6px; }
nav.toc a { display: block; padding: 3px 8px; border-radius: 6px; color: #334155; text-decoration: none; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
nav.toc a:hover { background: #e2e8f0; }
main { padding: 24px 28px 64px; min-width: 0; }
header.top { margin-bottom: 20px; }
header.top h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: -0.02em; }
.eyebrow { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: 0.06em; color: var(--accent); }
.small { font-size: 12px; font-weight: 400; }
.ci { color: var(--muted); font-size: 12px; font-weight: 400; }
td.nowrap, .nowrap { white-space: nowrap; }
/* Names come from users (custom arms, agent modules): they wrap, so a table fits a 1280 px screen. */
td.arm, td.name { min-width: 8em; max-width: 15em; overflow-wrap: anywhere; }
table.compact { width: auto; min-width: 420px; }
code.cmd .nw { white-space: nowrap; }
/* In a table a command wraps between its flags (and inside one only if it must) rather than widen the table past the screen. */
td code.cmd { display: block; white-space: normal; }
td code.cmd .nw { display: inline-block; max-width: 100%; white-space: normal; overflow-wrap: anywhere; }
header.top p { margin: 0; color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0 0; }
.card { background: white; border: 1px solid var(--line); border-radius: 10px; padding: 8px 14px; min-width: 120px; }
.card b { display: block; font-size: 18px; }
.card span { color: var(--muted); font-size: 12px; }
section.block { background: white; border: 1px solid var(--line); border-radius: 12px; padding: 18px 22px; margin: 0 0 22px; }
section.block > h2 { margin: 0 0 6px; font-size: 19px; letter-spacing: -0.01em; }
section.block > p.intro { margin: 0 0 14px; color: #334155; max-width: 900px; }
.scenario { border-top: 1px solid var(--line); padding-top: 14px; margin-top: 14px; }
.scenario:first-of-type { border-top: 0; margin-top: 0; }
.scenario h3 { margin: 0 0 4px; font-size: 16px; }
p.lede { margin: 0 0 10px; color: #334155; }
figure.chart { margin: 10px 0 14px; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 12px; margin-top: 4px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13px; width: 100%; }
th, td { text-align: left; padding: 6px 7px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: #334155; background: var(--soft); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
tr.baseline td { background: #fafafa; }
td.best { font-weight: 700; }
.better { color: #15803d; font-weight: 600; } .worse { color: #b91c1c; font-weight: 600; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 3px; margin-right: 6px; vertical-align: -1px; }
.chip { display: inline-block; background: #f1f5f9; border-radius: 999px; padding: 0 8px; margin: 1px 2px 1px 0; font-size: 12px; white-space: nowrap; }
.chip.setting { white-space: normal; overflow-wrap: anywhere; }
.tag { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 8px; border-radius: 999px; background: #fef3c7; color: #92400e; vertical-align: 2px; margin-left: 6px; }
.muted { color: var(--muted); }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f1f5f9; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
code.cmd { background: #0f172a; color: #e2e8f0; padding: 3px 8px; user-select: all; overflow-wrap: normal; }
pre { white-space: pre-wrap; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--soft); padding: 10px; border-radius: 8px; }
.note { background: #fffbeb; border: 1px solid #fde68a; border-radius: 8px; padding: 8px 12px; color: #78350f; }
.badge { display: inline-block; font-size: 11px; font-weight: 700; padding: 1px 8px; border-radius: 999px; text-transform: uppercase; letter-spacing: 0.03em; background: #e2e8f0; color: #334155; }
.v-success { background: #dcfce7; color: #166534; } .v-escalated { background: #fef3c7; color: #92400e; }
.v-failure { background: #e2e8f0; color: #334155; } .v-harmful { background: #fee2e2; color: #991b1b; }
.badge.r-robust, .badge.r-depends, .badge.r-none, .badge.r-one { text-transform: none; letter-spacing: 0; font-size: 12px; white-space: nowrap; }
.r-robust { background: #dcfce7; color: #166534; } .r-depends { background: #fef3c7; color: #92400e; }
.r-none { background: #e2e8f0; color: #334155; } .r-one { background: #f1f5f9; color: #64748b; }
ul.answers { margin: 8px 0 12px; padding-left: 20px; max-width: 1000px; } ul.answers li { margin: 6px 0; }
article.run { border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; margin: 16px 0; }
article.run:target { border-color: var(--accent); box-shadow: 0 0 0 3px #dbeafe; }
article.run header { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
article.run h3 { margin: 0; font-size: 15px; }
article.run .up { margin-left: auto; font-size: 12px; }
article.run p { margin: 6px 0; }
ol.timeline { list-style: none; margin: 8px 0; padding: 0; max-height: 520px; overflow-y: auto; border: 1px solid var(--line); border-radius: 8px; font-size: 12.5px; }
.ev { display: grid; grid-template-columns: 64px 64px minmax(0, 1fr); gap: 8px; padding: 3px 10px; border-bottom: 1px solid #f1f5f9; }
.ev .t { color: var(--muted); text-align: right; font-variant-numeric: tabular-nums; }
.ev .k { font-size: 11px; font-weight: 700; text-transform: uppercase; color: #475569; }
.ev.in .d { padding-left: 16px; }
.ev-model { background: #eff6ff; } .ev-model .k { color: #1d4ed8; }
.ev-fault .k, .ev-error .k { color: #b91c1c; } .ev-fault { background: #fef2f2; }
.ev-retry .k { color: #b45309; } .ev-ok .k { color: #15803d; }
.ev-guard { background: #f5f3ff; } .ev-guard .k { color: #6d28d9; }
.ev-escalate { background: #fffbeb; } .ev-escalate .k { color: #b45309; }
.ev-run .k, .ev-other .k { color: #334155; } .ev-gap { background: var(--soft); font-style: italic; }
q { color: #334155; font-style: italic; }
q::before, q::after { content: '"'; }
dl.kv { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 16px; margin: 0 0 12px; }
dl.kv dt { color: var(--muted); } dl.kv dd { margin: 0; }
@media (max-width: 960px) { .layout { grid-template-columns: 1fr; } nav.toc { position: static; height: auto; } }
`;

/** A chart in the page: its SVG, and its Vega-Lite spec as inert JSON beside it. */
export function figure(chart: RenderedChart, caption?: HtmlValue): SafeHtml {
  return html`<figure class="chart" id="${chart.id}" aria-label="${chart.label}">${trusted(chart.svg)}
<script type="application/json" class="vega-lite-spec" data-chart="${chart.id}">${jsonInScript(chart.spec)}</script>${caption === undefined ? '' : html`<figcaption>${caption}</figcaption>`}</figure>`;
}

function tocList(entries: readonly TocEntry[]): SafeHtml {
  return html`<ol>${entries.map((entry) => html`<li><a href="#${entry.id}">${entry.title}</a>${entry.children === undefined || entry.children.length === 0 ? '' : tocList(entry.children)}</li>`)}</ol>`;
}

/** The whole document: one file, styles inline, no script, nothing fetched. */
export function page(options: {
  readonly title: string;
  readonly toc: readonly TocEntry[];
  readonly header: SafeHtml;
  readonly body: readonly SafeHtml[];
}): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
${trusted(REPORT_GENERATOR_META)}
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<style>${trusted(STYLE)}</style>
</head>
<body>
<div class="layout">
<nav class="toc" aria-label="Contents"><div class="brand">spiralbench report</div>${tocList(options.toc)}</nav>
<main>
${options.header}
${options.body}
</main>
</div>
</body>
</html>`}\n`;
}
