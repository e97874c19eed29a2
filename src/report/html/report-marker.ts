/**
 * How an HTML report says spiralbench wrote it, so that `report --html` and `run --report`
 * replace their own earlier report freely and refuse any other file at the path.
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
