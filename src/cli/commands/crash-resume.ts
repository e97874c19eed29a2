import { resolve } from 'node:path';
import Table from 'cli-table3';
import type { Command } from 'commander';
import { resolveArms } from '../../arms/arms.js';
import { checkSeeds } from '../../sweep/sweep-plan.js';
import { runCrashResumeSweep, type CrashResumeCell } from '../../crash-resume/crash-resume-sweep.js';
import { resolveScenarioSource } from '../../sweep/scenario-source.js';
import { UserInputError } from '../../user-input-error.js';
import { commaList, nonNegativeInt, seedCount } from '../parse.js';
import { sweepProgress } from '../progress.js';
import { outputFolder } from '../output-folder.js';
import { optionAlias } from '../option-alias.js';

interface CrashResumeFlags {
  readonly scenarios: string[];
  readonly arms: string[];
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly store: string;
  readonly out: string;
}

function render(cells: readonly CrashResumeCell[]): string {
  const table = new Table({
    head: [
      'scenario',
      'arm',
      'resume',
      'runs',
      'crash: checkpoint / before / mid / after tool',
      'success (uncrashed)',
      'asked a person',
      'writes the resume repeated',
      'lost results',
      'replayed',
      'duplicated writes in the world (uncrashed)',
    ],
    style: { head: [], border: [] },
  });
  for (const cell of cells) {
    const { checkpoint, before_tool: before, mid_tool: mid, after_tool: after } = cell.crashes;
    table.push([
      cell.scenario,
      cell.arm,
      cell.mode,
      cell.runs,
      `${checkpoint} / ${before} / ${mid} / ${after}`,
      `${cell.success} (${cell.uncrashed_success})`,
      cell.waiting_on_human,
      cell.resume_duplicates,
      cell.lost_results,
      cell.replayed,
      `${cell.duplicate_side_effects} (${cell.uncrashed_duplicate_side_effects})`,
    ]);
  }
  return table.toString();
}

export function registerCrashResume(program: Command): void {
  program
    .command('crash-resume')
    .description(
      'Crash every run once at a seeded point (after a checkpoint, before, during or after a tool call) and resume it through the idempotency envelope and naively; count duplicate side effects and lost results.',
    )
    .option(
      '-s, --scenarios <ids>',
      'scenario ids or .yaml paths, comma-separated (--scenario is an alias)',
      commaList,
      ['fetch-transform-write', 'send-email-partial-write'],
    )
    .addOption(optionAlias('--scenario <ids>', 'scenarios', commaList))
    .option('-a, --arms <names>', 'arms, comma-separated', commaList, ['article'])
    .option('-n, --seeds <count>', 'runs (crash points) per scenario and arm', seedCount, 200)
    .option('--first-seed <n>', 'first run seed (--seed is an alias)', nonNegativeInt, 1)
    .addOption(optionAlias('--seed <n>', 'firstSeed', nonNegativeInt))
    .option('--sweep-seed <n>', 'namespace of every random stream', nonNegativeInt, 0)
    .option('--store <kind>', "where checkpoints live: 'memory' or 'file' (checkpoints.jsonl in --out)", 'memory')
    .option(
      '-o, --out <dir>',
      'folder for crash-resume.jsonl and crash-resume-summary.json',
      outputFolder,
      'results/crash-resume',
    )
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  spiralbench crash-resume -s fetch-transform-write,send-email-partial-write -a article -n 1000',
      ].join('\n'),
    )
    .action(async (flags: CrashResumeFlags) => {
      checkSeeds({ base: flags.firstSeed, count: flags.seeds });
      if (flags.store !== 'memory' && flags.store !== 'file')
        throw UserInputError.single('--store', '', `'memory' or 'file', got '${flags.store}'`);
      const scenarios = flags.scenarios.map((source) => resolveScenarioSource(source).scenario);
      const arms = resolveArms(flags.arms);
      const outDir = resolve(flags.out);
      const progress = sweepProgress(scenarios.length * arms.length * flags.seeds * 2);
      const cells = await runCrashResumeSweep({
        scenarios,
        arms,
        seeds: flags.seeds,
        baseSeed: flags.firstSeed,
        sweepSeed: flags.sweepSeed,
        store: flags.store,
        outDir,
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      process.stdout.write(`${render(cells)}\n`);
      process.stdout.write(`\nresults: ${outDir}/{crash-resume.jsonl,crash-resume-summary.json}\n`);
    });
}
