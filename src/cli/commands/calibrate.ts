import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { usesDefaultPersona } from '../../sweep/ensemble-cast.js';
import { loadScenarioSource } from '../../sweep/scenario-source.js';
import {
  calibrate,
  DEFAULT_CALIBRATION_SEED,
  DEFAULT_MEMBERS,
  DEFAULT_SEEDS_PER_CANDIDATE,
  ensembleFile,
} from '../../calibration/calibrate.js';
import { renderFitSummary } from '../../calibration/fit-summary.js';
import { type SourcedTargets, targetsFrom } from '../../calibration/targets-from.js';
import {
  DEFAULT_TOLERANCES,
  parseTargets,
  parseTolerances,
  TARGET_NAMES,
  TARGET_SPECS,
  type Targets,
} from '../../calibration/targets.js';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { ensembleText } from '../../scenarios/persona-ensemble.js';
import { sourceKind } from '../../behaviour/trajectory-source.js';
import { UserInputError } from '../../user-input-error.js';
import { calibrationProgress } from '../calibration-progress.js';
import { commaList, nonNegativeInt, workerCount } from '../parse.js';
import { replayProgress } from '../replay-progress.js';
import { replaceableFile } from '../output-file.js';

/** What --from computed, what the command line replaced, and what the source could not give. */
function sourcedTargetsText(sourced: SourcedTargets, given: Targets): string {
  const computed = TARGET_NAMES.filter((name) => sourced.targets[name] !== undefined);
  return [
    `targets from ${sourced.described}:`,
    ...computed.map(
      (name) =>
        `  ${name} = ${sourced.targets[name]}${given[name] === undefined ? '' : ` (replaced by --target: ${given[name]})`}`,
    ),
    ...(sourced.missing.length === 0 ? [] : ['not computed (not fitted unless --target gives them):']),
    ...sourced.missing.map(({ name, why }) => `  ${name}: ${why}`),
  ].join('\n');
}

interface CalibrateFlags {
  readonly scenario: string;
  readonly target?: string[];
  readonly from?: string;
  readonly fromArm?: string;
  readonly tolerance?: string[];
  readonly members: number;
  readonly seed: number;
  readonly seedsPerCandidate: number;
  readonly workers: number;
  readonly out: string;
  readonly overwrite: boolean;
}

/** A whole number in [low, high], for commander. */
function wholeIn(low: number, high: number, what: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < low || n > high)
      throw new InvalidArgumentError(`expected a whole number from ${low} to ${high} (${what}).`);
    return n;
  };
}

/**
 * The ensemble file to write: refused before the fit, not after it. A file already there
 * (the bundled default ensemble among them) is replaced only with --overwrite.
 */
function outFile(path: string, overwrite: boolean): string {
  const absolute = resolve(path);
  if (path.trim() === '') throw UserInputError.single('--out', '', 'a file path; got an empty one');
  if (existsSync(absolute) && statSync(absolute).isDirectory())
    throw UserInputError.single('--out', '', `a file, not a folder (${absolute} is a folder)`);
  if (!existsSync(dirname(absolute)) || !statSync(dirname(absolute)).isDirectory())
    throw UserInputError.single(
      '--out',
      '',
      `a file in an existing folder; ${dirname(absolute)} ${existsSync(dirname(absolute)) ? 'is a file' : 'does not exist'}`,
    );
  return replaceableFile(absolute, { another: '--out', overwrite });
}

export function registerCalibrate(program: Command): void {
  const targets = TARGET_NAMES.map((name) => `${name} (${TARGET_SPECS[name].meaning})`).join('; ');
  program
    .command('calibrate')
    .description(
      "Fit a persona ensemble to your agent's own no-safeguard statistics (approximate Bayesian computation) and write it for `run --ensemble`.",
    )
    .requiredOption('-s, --scenario <id>', 'the scenario your statistics describe: a bundled id or a .yaml path')
    .option(
      '--target <pairs>',
      `the statistics to match, name=value comma-separated, any of: ${targets}; with --from, these replace the values it computed`,
      commaList,
    )
    .option(
      '--from <dir|file>',
      "compute the targets from your agent's runs: a results folder (its arm none, or its one agent arm, on --scenario), a trajectory JSONL file or an OTLP/JSON trace file (docs/behaviour.md); it says which targets the source cannot give",
    )
    .option('--from-arm <name>', 'with a results folder: the arm whose runs are your agent without safeguards')
    .option(
      '--tolerance <pairs>',
      `each target's band, name=value: a ratio for counts, a difference for shares (default ${TARGET_NAMES.map((name) => `${name}=${DEFAULT_TOLERANCES[name]}`).join(',')})`,
      commaList,
    )
    .option('--members <n>', 'personas in the ensemble (4 to 1000)', wholeIn(4, 1000, 'members'), DEFAULT_MEMBERS)
    .option('--seed <n>', 'seeds the sampler and the fitting runs', nonNegativeInt, DEFAULT_CALIBRATION_SEED)
    .option(
      '--seeds-per-candidate <n>',
      "runs of the no-safeguard arm behind one candidate's statistics (10 to 100000): fewer is faster and noisier",
      wholeIn(10, 100_000, 'runs a candidate'),
      DEFAULT_SEEDS_PER_CANDIDATE,
    )
    .option(
      '-w, --workers <n>',
      'worker threads (1 runs inline); the ensemble is the same bytes for any count',
      workerCount,
      availableParallelism(),
    )
    .requiredOption('-o, --out <file>', 'the ensemble file to write (YAML), written atomically')
    .option(
      '--overwrite',
      "replace a file already at --out (without it, one is refused, and so is any path in spiralbench's bundled scenarios)",
      false,
    )
    .addHelpText(
      'after',
      [
        '',
        'Runs the scenario without safeguards (arm none) with personas drawn from the priors of',
        'every persona parameter, and keeps those whose statistics all fall in their bands (ABC-SMC;',
        'docs/calibration.md). Bands: counts within a ratio of their target, success within a',
        "difference. Parameters the statistics cannot see (a guard's words, tools the scenario lacks)",
        'stay spread over their priors: that is the uncertainty `run --ensemble` carries into every',
        'comparison. The same command gives the same file, byte for byte, for any -w.',
        '',
        'Behaviour targets (identical_consecutive, after_*_identical, long_run_repeat_share) are',
        "read off each candidate's transcripts (docs/behaviour.md defines them); a target not given",
        'is not fitted. --from computes every target its source can give and prints the --target',
        'line it used, so the fit can be made again without the source.',
        '',
        'Examples:',
        '  spiralbench calibrate --scenario fetch-transform-write --target median_calls=12,p95_calls=89,success=0.64,median_input_tokens=18400 --out my-agent.yaml',
        '  spiralbench calibrate --scenario fetch-transform-write --from results/my-agent-none --out my-agent.yaml',
        '  spiralbench run -s fetch-transform-write -a none,article --ensemble my-agent.yaml',
      ].join('\n'),
    )
    .action(async (flags: CalibrateFlags) => {
      if (flags.fromArm !== undefined && (flags.from === undefined || !isResultsSource(flags.from)))
        throw UserInputError.single(
          '--from-arm',
          flags.fromArm,
          'used with --from <results folder> (a file has no arms)',
        );
      if (flags.target === undefined && flags.from === undefined)
        throw UserInputError.single('--target', '', "the statistics to match, or --from with your agent's runs");
      const given = flags.target === undefined ? {} : parseTargets(flags.target);
      const tolerances = flags.tolerance === undefined ? DEFAULT_TOLERANCES : parseTolerances(flags.tolerance);
      const out = outFile(flags.out, flags.overwrite);
      const source = { ...(await loadScenarioSource(flags.scenario)), ref: flags.scenario };
      let targetValues: Targets = given;
      if (flags.from !== undefined) {
        const progress = replayProgress('runs run again to read their behaviour');
        let sourced: SourcedTargets;
        try {
          sourced = await targetsFrom(flags.from, source.scenario.id, progress.update, flags.fromArm);
        } finally {
          progress.stop();
        }
        targetValues = Object.freeze({ ...sourced.targets, ...given });
        process.stdout.write(`${sourcedTargetsText(sourced, given)}\n\n`);
      }
      // `run --ensemble` leaves a scenario's own persona in place, so an ensemble fitted on
      // one would never be played there: the fit would describe runs that never happen.
      if (!usesDefaultPersona(source.texts))
        throw UserInputError.single(
          '--scenario',
          '',
          `a scenario on the default persona (run --ensemble replaces only that one); ${flags.scenario} names its own persona '${source.texts.persona.id}'`,
        );
      const calibration = await calibrate({
        source,
        targets: targetValues,
        tolerances,
        members: flags.members,
        seed: flags.seed,
        seedsPerCandidate: flags.seedsPerCandidate,
        workers: flags.workers,
        onProgress: calibrationProgress(),
      });
      const text = ensembleText(ensembleFile(calibration));
      writeFileAtomic(out, text);
      const hash = createHash('sha256').update(text).digest('hex');
      process.stdout.write(`${renderFitSummary(calibration)}\n\n`);
      process.stdout.write(`written: ${flags.out} (sha256 ${hash})\n`);
      process.stdout.write(`use it: spiralbench run -s ${flags.scenario} -a none,article --ensemble ${flags.out}\n`);
    });
}

/** Whether `--from` names a results folder, or a file in one (its arms can be chosen); a path with nothing there is --from's to refuse. */
function isResultsSource(path: string): boolean {
  return !existsSync(path) || sourceKind(path) === 'results';
}
