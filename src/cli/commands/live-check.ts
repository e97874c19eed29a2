import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveArms } from '../../arms/arms.js';
import { checkSeeds } from '../../sweep/sweep-plan.js';
import { liveCheck, type LiveCheckResult } from '../../sweep/live-check.js';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { loadScenarioSource } from '../../sweep/scenario-source.js';
import { commaList, nonNegativeInt, positiveInt, seedCount } from '../parse.js';
import { sweepProgress } from '../progress.js';
import { outputFolder } from '../output-folder.js';
import { optionAlias } from '../option-alias.js';

interface LiveCheckFlags {
  readonly scenario: string;
  readonly arms: string[];
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly liveTimeoutMs: number;
  readonly modelUrl?: string;
  readonly out?: string;
  readonly json: boolean;
}

export function registerLiveCheck(program: Command): void {
  program
    .command('live-check')
    .description(
      'Run the same seeds virtually and live (tools and model over HTTP on loopback, real time) and report, per run, whether the faults met and the classes assigned match.',
    )
    .requiredOption('-s, --scenario <id>', 'scenario id or .yaml path')
    .option('-a, --arms <names>', 'arms, comma-separated', commaList, ['article'])
    .option('-n, --seeds <count>', 'runs per arm', seedCount, 20)
    .option('--first-seed <n>', 'first run seed (--seed is an alias)', nonNegativeInt, 1)
    .addOption(optionAlias('--seed <n>', 'firstSeed', nonNegativeInt))
    .option('--sweep-seed <n>', 'namespace of every random stream', nonNegativeInt, 0)
    .option(
      '--live-timeout-ms <ms>',
      "the tool client's timeout in real ms; sets the time scale (see docs/live.md)",
      positiveInt,
      200,
    )
    .option('--model-url <url>', 'a running `spiralbench serve-model --faults` instead of one started in-process')
    .option(
      '-o, --out <dir>',
      'also write live-check.json (every run, both modes, call by call) to this folder',
      outputFolder,
    )
    .option('--json', 'print the result as JSON instead of a table', false)
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  spiralbench live-check -s fetch-transform-write -a article,none -n 200 -o results/live-check',
      ].join('\n'),
    )
    .action(async (flags: LiveCheckFlags) => {
      checkSeeds({ base: flags.firstSeed, count: flags.seeds });
      const { scenario } = await loadScenarioSource(flags.scenario);
      const arms = resolveArms(flags.arms, '--arms', new Map());
      const progress = sweepProgress(arms.length * flags.seeds);
      const result = await liveCheck({
        scenario,
        arms,
        seeds: flags.seeds,
        baseSeed: flags.firstSeed,
        sweepSeed: flags.sweepSeed,
        live: { timeoutMs: flags.liveTimeoutMs, ...(flags.modelUrl === undefined ? {} : { modelUrl: flags.modelUrl }) },
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      if (flags.out !== undefined) {
        const dir = resolve(flags.out);
        mkdirSync(dir, { recursive: true });
        writeFileAtomic(join(dir, 'live-check.json'), `${JSON.stringify(result, null, 2)}\n`);
        process.stderr.write(`written: ${join(dir, 'live-check.json')}\n`);
      }
      process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : formatLiveCheck(result));
    });
}

const pct = (n: number, of: number): string => `${n}/${of} (${of === 0 ? '-' : ((100 * n) / of).toFixed(1)}%)`;

/** The comparison as a few lines a person reads: rates per arm, then every run that differed. */
export function formatLiveCheck(result: LiveCheckResult): string {
  const lines = [
    `${result.live.note}`,
    `live-check ${result.scenario} · seeds ${result.seeds.base}..${result.seeds.base + result.seeds.count - 1} · sweep seed ${result.sweep_seed} · tool timeout ${result.live.timeout_ms} ms · time scale ${Object.values(result.live.time_scale).join(', ')}`,
    '',
  ];
  for (const arm of result.arms) {
    lines.push(
      `${arm.arm}: ${arm.runs} runs · live wall ${arm.live_wall_seconds} s (virtual ${arm.virtual_wall_seconds} s)`,
    );
    lines.push(`  faults met match virtual:        ${pct(arm.faults_match, arm.runs)}`);
    lines.push(`  classes assigned match virtual:  ${pct(arm.classes_match, arm.runs)}`);
    lines.push(`  live faults rendered as decided: ${pct(arm.rendered_as_decided, arm.runs)}`);
    lines.push(`  verdicts match:                  ${pct(arm.verdict_match, arm.runs)}`);
  }
  const differing = result.runs.filter(
    (run) => !run.faults_match || !run.classes_match || !run.rendered_as_decided || !run.verdict_match,
  );
  if (differing.length > 0) {
    lines.push('', 'runs that differ:');
    for (const run of differing.slice(0, 20)) {
      const at = run.first_difference;
      const where =
        at === null
          ? 'same calls'
          : `call ${at.index + 1}: virtual ${describe(at.virtual)} vs live ${describe(at.live)}`;
      lines.push(`  ${run.arm} seed ${run.seed}: verdict ${run.virtual.verdict} → ${run.live.verdict}; ${where}`);
    }
    if (differing.length > 20) lines.push(`  ... ${differing.length - 20} more (see --out or --json)`);
  }
  return `${lines.join('\n')}\n`;
}

function describe(
  call: { readonly tool: string; readonly fault: string | null; readonly code: string | null } | null,
): string {
  return call === null ? '(none)' : `${call.tool} ${call.fault ?? 'ok'}${call.code === null ? '' : `/${call.code}`}`;
}
