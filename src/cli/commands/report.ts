import type { Command } from 'commander';
import { CSV_HEADLINE_FILE, MARKDOWN_HEADLINE_FILE, REPORT_FILE } from '../../report/html/report-marker.js';
import { UserInputError } from '../../user-input-error.js';
import { replaceableFile } from '../output-file.js';

interface ReportFlags {
  /** A path, or true for the default path. */
  readonly html?: string | true;
  /** A path, or true for stdout. */
  readonly markdown?: string | true;
  readonly csv?: string | true;
  readonly overwrite: boolean;
  readonly json: boolean;
}

const HELP_AFTER = `
With no flag, writes the HTML report to reports/<sweep folder name>.html.
The HTML report is one file that works offline: charts are SVG rendered here (Vega-Lite),
no script runs in it and nothing is fetched. It reads only the saved results; the same
results give the same bytes. A sweep that is not whole (still being written, interrupted,
cut short) gets no report, and a report file is replaced only once it is fully written.
An earlier report at the --html path is replaced; any other file there (or a link, a
device) is refused, exit 2, unless --overwrite.

Examples:
  spiralbench report results/latest
  spiralbench report results/nightly --html reports/nightly.html --markdown "$GITHUB_STEP_SUMMARY"
  spiralbench report results/latest --markdown          # the headline as Markdown on stdout
  spiralbench report results/latest --csv headline.csv
  spiralbench report results/latest --json               # the headline as JSON on stdout (README: "Machine-readable output")`;

/** `spiralbench report <sweep>`: the HTML comparison report, and the headline as Markdown or CSV. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'Make the comparison report of a saved sweep: one self-contained HTML file (headline, distributions, ablation, run timelines, provenance), and the headline as Markdown or CSV.',
    )
    .argument('<sweep>', 'sweep folder (holding summary.json and runs.jsonl)')
    .option('--html [file]', 'write the HTML report here (default: reports/<sweep name>.html)')
    .option('--markdown [file]', 'write the headline as a Markdown table here (default: stdout)')
    .option('--csv [file]', 'write the headline as CSV, one row per scenario and arm, here (default: stdout)')
    .option(
      '--overwrite',
      'replace whatever is at the --html, --markdown or --csv path, not only an earlier report',
      false,
    )
    .option('--json', 'print the headline as JSON on stdout (the other files only if asked for)', false)
    .addHelpText('after', HELP_AFTER)
    .action(async (sweep: string, flags: ReportFlags) => {
      // Loaded here, not at the top: vega and vega-lite would slow every other command's start.
      const { defaultHtmlPath, writeReport } = await import('../../report/html/write-report.js');
      const stdout = (flag: string | true | undefined) => (flag === true ? '-' : flag);
      // The HTML report is the default only when nothing else is asked for: --json is a headline on stdout alone.
      const nothingAsked =
        flags.html === undefined && flags.markdown === undefined && flags.csv === undefined && !flags.json;
      const asked = flags.html === true || nothingAsked ? defaultHtmlPath(sweep) : flags.html;
      const html =
        asked === undefined
          ? undefined
          : replaceableFile(asked, { another: '--html', overwrite: flags.overwrite, ours: REPORT_FILE });
      const toFile = (
        path: string | undefined,
        another: string,
        ours: typeof MARKDOWN_HEADLINE_FILE | typeof CSV_HEADLINE_FILE,
      ) =>
        path === undefined || path === '-'
          ? path
          : replaceableFile(path, { another, overwrite: flags.overwrite, ours });
      const markdown = toFile(stdout(flags.markdown), '--markdown', MARKDOWN_HEADLINE_FILE);
      const csv = toFile(stdout(flags.csv), '--csv', CSV_HEADLINE_FILE);
      const onStdout = [
        ...(markdown === '-' ? ['--markdown'] : []),
        ...(csv === '-' ? ['--csv'] : []),
        ...(flags.json ? ['--json'] : []),
      ];
      if (onStdout.length > 1)
        throw UserInputError.single(
          onStdout.at(-1)!,
          '',
          `stdout to itself: ${onStdout.join(' and ')} would both print there (give --markdown or --csv a file)`,
        );
      const result = await writeReport(sweep, {
        ...(html === undefined ? {} : { html }),
        ...(markdown === undefined ? {} : { markdown }),
        ...(csv === undefined ? {} : { csv }),
        ...(flags.json ? { json: '-' } : {}),
      });
      // With Markdown, CSV or JSON on stdout, stdout is only that; everything else goes to stderr.
      const toStdout = onStdout.length > 0;
      const say = (line: string) => (toStdout ? process.stderr : process.stdout).write(`${line}\n`);
      for (const note of result.notes) say(`note: ${note}`);
      if (result.htmlPath !== undefined) {
        const traced =
          result.traced === undefined
            ? 'no drill-down'
            : `${result.timelines} of ${result.traced} traced runs with a timeline`;
        say(
          `html: ${result.htmlPath} (${((result.htmlBytes ?? 0) / 1024).toFixed(0)} KiB, ${result.charts} charts, ${traced})`,
        );
      }
      if (result.markdownPath !== undefined && result.markdownPath !== '-') say(`markdown: ${result.markdownPath}`);
      if (result.csvPath !== undefined && result.csvPath !== '-') say(`csv: ${result.csvPath}`);
    });
}
