import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { renderMarkdownSummary } from '../markdown-summary.js';
import { readSweepRuns } from '../read-sweep.js';
import { conclusionsOf } from '../run-conclusions.js';
import { renderHeadlineCsv } from './headline-csv.js';
import { headlineJson } from './headline-json.js';
import { sweepDate } from './provenance-section.js';
import { readReportInput, readSweepHeader, type ReportInput } from './report-input.js';

/** What to write; with none of the four, the HTML report goes to `reports/<sweep name>.html`. */
export interface WriteReportOptions {
  /** The HTML report's path. @default reports/<sweep name>.html when nothing else is asked for */
  readonly html?: string;
  /** The headline as Markdown; `-` writes it to stdout. @default not written */
  readonly markdown?: string;
  /** The headline as CSV, one row per (scenario, arm); `-` writes it to stdout. @default not written */
  readonly csv?: string;
  /** The headline as JSON (`HeadlineJson`); `-` writes it to stdout. @default not written */
  readonly json?: string;
}

export interface WriteReportResult {
  readonly htmlPath?: string;
  readonly htmlBytes?: number;
  readonly markdownPath?: string;
  readonly csvPath?: string;
  readonly jsonPath?: string;
  /** Charts rendered, run timelines shown and runs traced (undefined: the sweep has no traces.jsonl). */
  readonly charts?: number;
  readonly timelines?: number;
  readonly traced?: number | undefined;
  /** Things a reader of the report should know, e.g. that the sweep has no traces. */
  readonly notes: readonly string[];
}

/** The default HTML path for a sweep folder: reports/<folder name>.html. */
export function defaultHtmlPath(sweepDir: string): string {
  return join('reports', `${readSweepHeader(sweepDir).name}.html`);
}

/** Writes a report file atomically (a full disk leaves the previous report whole), or to stdout for `-`. */
function write(path: string, text: string): string {
  if (path === '-') {
    process.stdout.write(text);
    return path;
  }
  const absolute = resolve(path);
  mkdirSync(dirname(absolute), { recursive: true });
  writeFileAtomic(absolute, text);
  return absolute;
}

/**
 * Writes the reports of a finished sweep folder: the self-contained HTML report, the
 * headline as Markdown (for `$GITHUB_STEP_SUMMARY` or a PR comment) and as CSV. Reads
 * only the saved results; the same results give the same bytes. The whole folder is
 * checked before anything is written: a sweep that is not whole gets no report at all.
 *
 * @example
 * const { htmlPath } = await writeReport('results/latest', { html: 'reports/latest.html' });
 */
export async function writeReport(sweepDir: string, options: WriteReportOptions = {}): Promise<WriteReportResult> {
  const nothingAsked =
    options.html === undefined &&
    options.markdown === undefined &&
    options.csv === undefined &&
    options.json === undefined;
  const htmlTarget = nothingAsked ? defaultHtmlPath(sweepDir) : options.html;
  const header = readSweepHeader(sweepDir);
  // The headline comes from summary.json alone, but a report of a damaged folder would vouch for it.
  let input: ReportInput | undefined;
  if (htmlTarget !== undefined) input = await readReportInput(header);
  const runs = input?.runs ?? (await readSweepRuns(header));
  const notes: string[] = [];
  if (header.meta === undefined)
    notes.push(`${header.dir} has no meta.json: the sweep's date, Node version and commit are not in the report`);

  let result: WriteReportResult = { notes };
  if (options.markdown !== undefined) {
    const date = header.meta === undefined ? {} : { date: `sweep finished ${sweepDate(header.meta.finished_at)}` };
    result = {
      ...result,
      markdownPath: write(
        options.markdown,
        renderMarkdownSummary(header.summary, {
          name: header.name,
          ...date,
          conclusions: conclusionsOf(runs, header.summary),
        }),
      ),
    };
  }
  if (options.csv !== undefined) result = { ...result, csvPath: write(options.csv, renderHeadlineCsv(header.summary)) };
  if (options.json !== undefined)
    result = {
      ...result,
      jsonPath: write(options.json, `${JSON.stringify(headlineJson(header.summary, header.name), null, 2)}\n`),
    };
  if (htmlTarget !== undefined && input !== undefined) {
    if (input.traces === undefined) notes.push(`${header.dir} has no traces.jsonl: the report has no drill-down`);
    // Loaded only for HTML: vega and vega-lite are not needed for the Markdown or the CSV.
    const { buildReport } = await import('./build-report.js');
    const built = await buildReport(input);
    result = {
      ...result,
      htmlPath: write(htmlTarget, built.html),
      htmlBytes: Buffer.byteLength(built.html),
      charts: built.charts.length,
      timelines: built.timelines,
      traced: built.traced,
    };
  }
  return result;
}
