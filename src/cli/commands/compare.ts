import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  DEFAULT_GATE,
  DEFAULT_SUCCESS_TOLERANCE,
  DEFAULT_THRESHOLDS,
  GATED_METRICS,
  type GatedMetric,
} from '../../report/compare.js';
import { compareSweepDirs } from '../../report/compare-sweeps.js';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { UserInputError } from '../../user-input-error.js';
import { CheckFailed } from '../check-failed.js';
import { colourStdout } from '../terminal-capabilities.js';
import { optionAlias } from '../option-alias.js';

export { compareSweepDirs } from '../../report/compare-sweeps.js';

interface CompareFlags {
  readonly armA?: string;
  readonly armB?: string;
  readonly failOnRegression: boolean;
  readonly successDrop?: number;
  readonly p95CallsRise?: number;
  readonly tokensRise?: number;
  readonly tolerance?: number;
  readonly bootstrapSeed?: number;
  readonly resamples?: number;
  readonly markdown?: string;
  readonly json: boolean;
  readonly gate?: readonly GatedMetric[];
}

/** A commander parser for --gate: figures by name, comma-separated, or `all`. */
function gateList(value: string): GatedMetric[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 1 && names[0] === 'all') return [...GATED_METRICS];
  const unknown = names.filter((name) => !(GATED_METRICS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0)
    throw UserInputError.single(
      '--gate',
      '',
      `one or more of ${GATED_METRICS.join(', ')} (or all), comma-separated; got '${value}'`,
    );
  return names as GatedMetric[];
}

/** A commander parser for a fraction: `0.02` or `2%`. */
function fraction(flag: string): (value: string) => number {
  return (value) => {
    const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(value);
    if (match === null)
      throw UserInputError.single(flag, '', `a fraction such as 0.1 or a percentage such as 10%; got '${value}'`);
    return Number(match[1]) / (match[2] === '%' ? 100 : 1);
  };
}

/** A commander parser for percentage points: `5` (or `5pts`) is 0.05. */
function points(flag: string): (value: string) => number {
  return (value) => {
    const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:pts?|points?)?\s*$/.exec(value);
    if (match === null) throw UserInputError.single(flag, '', `percentage points, e.g. 5; got '${value}'`);
    return Number(match[1]) / 100;
  };
}

function wholeNumber(flag: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
      throw UserInputError.single(flag, '', `a whole number; got '${value}'`);
    return Number(value);
  };
}

const percent = (x: number) => `${Number((x * 100).toFixed(2))}%`;

const HELP_AFTER = `
Each cell gets a verdict from every figure: improved, regressed, mixed (better on one
figure, worse on another, e.g. more success for more tool calls) or unchanged. A change
counts when it is significant at 95% (Fisher's exact test for success, or with a persona
ensemble the pooled interval across its models; a seeded bootstrap interval excluding 0
for tool calls and tokens) and beyond its threshold. The gate (--fail-on-regression)
fails only on a regression of a figure it gates: success unless --gate says otherwise.
With an ensemble, each change also says whether it is robust across the models, depends
on the model, or is no clear difference (docs/statistics.md). The bootstrap is seeded:
the same two sweeps always give the same output.

Examples:
  spiralbench compare results/baseline results/candidate
  spiralbench compare results/latest results/latest --arm-a classify --arm-b none

In CI (GitHub Actions), gate a change on a saved baseline:
  - name: Benchmark gate
    run: |
      spiralbench run --scenarios fetch-transform-write --arms none,article --seeds 300 --out results/candidate
      spiralbench compare results/baseline results/candidate --fail-on-regression --markdown "$GITHUB_STEP_SUMMARY"
  Gate on tail cost too:  --fail-on-regression --gate success,p95_tool_calls

Both sweeps must be whole: a folder still being written, interrupted, cut short, mixed
with another sweep's runs or of an unknown format version is refused (exit 2), so a gate
never passes on part of a sweep.

Exit codes: 0 no gated regression (or no --fail-on-regression), 1 a gated figure regressed, 2 bad input, 3 unexpected error.`;

/** `spiralbench compare <sweepA> <sweepB>`: what changed from A to B, and whether it is a regression. */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      'Compare two saved sweeps cell by cell (B against A): success, p95 tool calls and median input tokens with 95% intervals, how each change holds across a persona ensemble, a verdict per cell and overall, and a gate.',
    )
    .argument('<sweepA>', 'baseline sweep folder (holding runs.jsonl)')
    .argument('<sweepB>', 'candidate sweep folder (may be the same folder, with --arm-a/--arm-b)')
    .option('--arm-a <name>', 'compare only this arm of A (with --arm-b: against a different arm of B)')
    .option('--arm-b <name>', 'compare only this arm of B (default: the same as --arm-a)')
    .option('--fail-on-regression', 'exit with code 1 when a gated figure of any cell regressed', false)
    .option(
      '--gate <figures>',
      `figures whose regression fails the gate, comma-separated: ${GATED_METRICS.join(', ')}, or all (default: ${DEFAULT_GATE.join(',')})`,
      gateList,
    )
    .option(
      '--success-drop <fraction>',
      `success-rate drop that counts as a regression, absolute (default: ${DEFAULT_THRESHOLDS.successDrop}, i.e. ${Number((DEFAULT_THRESHOLDS.successDrop * 100).toFixed(2))} percentage points; 2% also works)`,
      fraction('--success-drop'),
    )
    .option(
      '--p95-calls-rise <fraction>',
      `p95 tool-call rise that counts as a regression, relative (default: ${DEFAULT_THRESHOLDS.p95CallsRise}, i.e. ${percent(DEFAULT_THRESHOLDS.p95CallsRise)})`,
      fraction('--p95-calls-rise'),
    )
    .option(
      '--tokens-rise <fraction>',
      `median input-token rise that counts as a regression, relative (default: ${DEFAULT_THRESHOLDS.tokensRise}, i.e. ${percent(DEFAULT_THRESHOLDS.tokensRise)})`,
      fraction('--tokens-rise'),
    )
    .option(
      '--tolerance <points>',
      `success-rate move, in percentage points either way, within which a cell with no significant change reads "unchanged"; an interval reaching further reads "inconclusive" (default: ${DEFAULT_SUCCESS_TOLERANCE * 100})`,
      points('--tolerance'),
    )
    .option(
      '--bootstrap-seed <n>',
      'seed of the bootstrap streams (default: 0; --seed is an alias)',
      wholeNumber('--bootstrap-seed'),
    )
    .addOption(optionAlias('--seed <n>', 'bootstrapSeed', wholeNumber('--seed')))
    .option('--resamples <n>', 'bootstrap resamples per metric (default: 2000)', wholeNumber('--resamples'))
    .option('--markdown <file>', 'also write a GitHub Markdown summary to this file (e.g. "$GITHUB_STEP_SUMMARY")')
    .option('--json', 'print the comparison as JSON instead of a table', false)
    .addHelpText('after', HELP_AFTER)
    .action(async (sweepA: string, sweepB: string, flags: CompareFlags) => {
      const markdownPath = flags.markdown === undefined ? undefined : checkWritable(flags.markdown);
      const result = await compareSweepDirs(sweepA, sweepB, {
        ...(flags.armA === undefined ? {} : { armA: flags.armA }),
        ...(flags.armB === undefined ? {} : { armB: flags.armB }),
        thresholds: {
          ...(flags.successDrop === undefined ? {} : { successDrop: flags.successDrop }),
          ...(flags.p95CallsRise === undefined ? {} : { p95CallsRise: flags.p95CallsRise }),
          ...(flags.tokensRise === undefined ? {} : { tokensRise: flags.tokensRise }),
        },
        ...(flags.bootstrapSeed === undefined ? {} : { seed: flags.bootstrapSeed }),
        ...(flags.resamples === undefined ? {} : { resamples: flags.resamples }),
        ...(flags.gate === undefined ? {} : { gate: flags.gate }),
        ...(flags.tolerance === undefined ? {} : { successTolerance: flags.tolerance }),
        color: colourStdout() && !flags.json,
      });
      // With --json, stdout is only JSON; everything else goes to stderr.
      const say = (line: string) => (flags.json ? process.stderr : process.stdout).write(`${line}\n`);
      if (flags.json) process.stdout.write(`${JSON.stringify(result.comparison, null, 2)}\n`);
      else say(result.text);
      if (markdownPath !== undefined) {
        writeFileAtomic(markdownPath, result.markdown);
        say(`markdown: ${markdownPath}`);
      }
      // A gate that compared less than the baseline has would pass by not looking.
      if (flags.failOnRegression && result.comparison.onlyInA.length > 0 && flags.armA === undefined) {
        throw new CheckFailed(
          `compare: ${result.comparison.onlyInA.length} baseline cell(s) missing from ${sweepB} (--fail-on-regression)`,
        );
      }
      if (flags.failOnRegression && result.regressions.length > 0) {
        throw new CheckFailed(
          `compare: ${result.regressions.length} ${result.regressions.length === 1 ? 'cell' : 'cells'} regressed on ${result.comparison.options.gate.join(', ')} (--fail-on-regression)`,
        );
      }
    });
}

function checkWritable(path: string): string {
  const absolute = resolve(path);
  const parent = dirname(absolute);
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    throw UserInputError.single(
      '--markdown',
      '',
      `a file in an existing folder; ${parent} ${existsSync(parent) ? 'is a file' : 'does not exist'}`,
    );
  if (existsSync(absolute) && statSync(absolute).isDirectory())
    throw UserInputError.single('--markdown', '', `a file path; ${absolute} is a folder`);
  return absolute;
}
