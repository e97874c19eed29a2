/**
 * How an HTML report says spiralbench wrote it, so that `report --html` and `run --report`
 * replace their own earlier report freely and refuse any other file at the path (and the
 * same for `report --markdown` and `--csv` files, by their first line).
 */
export const REPORT_GENERATOR_META = '<meta name="generator" content="spiralbench">';

/** Reports written before the generator line carry the page's brand in their first screen. */
const OLDER_REPORT_BRAND = '<nav class="toc" aria-label="Contents"><div class="brand">spiralbench report</div>';

/** The rule of an HTML report's path, for replaceableFile (src/cli/output-file.ts). */
export const REPORT_FILE = {
  what: 'an HTML report',
  test: (head: string) =>
    head.startsWith('<!doctype html>') && (head.includes(REPORT_GENERATOR_META) || head.includes(OLDER_REPORT_BRAND)),
} as const;

/** The rule of a Markdown headline's path: it opens with the heading markdown-summary.ts writes. */
export const MARKDOWN_HEADLINE_FILE = {
  what: 'a Markdown headline',
  test: (head: string) => head.startsWith('## spiralbench report: '),
} as const;

/** The rule of a CSV headline's path: its header row opens as headline-csv.ts writes it. */
export const CSV_HEADLINE_FILE = {
  what: 'a CSV headline',
  test: (head: string) => head.startsWith('scenario,arm,runs,impossible,rate,'),
} as const;
