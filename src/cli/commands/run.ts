import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveArms } from '../../bench/arms.js';
import { runSweep } from '../../bench/sweep.js';
import { renderCellTables } from '../../report/terminal-table.js';
import { loadScenario } from '../../scenarios/loader.js';
import { chooseModel } from '../model-choice.js';
import { commaList, nonNegativeInt, positiveInt } from '../parse.js';

interface RunFlags {
  readonly scenario: string[];
  readonly arms: string[];
  readonly seeds: number;
  readonly seed: number;
  readonly sweepSeed: number;
  readonly out: string;
  readonly via: string;
  readonly model?: string;
  readonly json: boolean;
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run scenario × arm × seed and print a table per scenario; write runs.jsonl, runs.csv and summary.json.')
    .requiredOption('-s, --scenario <ids>', 'scenario id(s), comma-separated (see `spiralbench list`)', commaList)
    .option('-a, --arms <names>', 'arms to compare, comma-separated', commaList, ['none', 'article'])
    .option('-n, --seeds <count>', 'runs per scenario and arm', positiveInt, 50)
    .option('--seed <base>', 'first run seed; runs use base, base+1, ...', nonNegativeInt, 1)
    .option('--sweep-seed <n>', 'namespace of every random stream in the sweep', nonNegativeInt, 0)
    .option('-o, --out <dir>', 'results folder', 'results/latest')
    .option('--via <path>', "how the simulated model is reached: 'in-process' (fast) or 'sdk' (through the real Anthropic SDK)", 'in-process')
    .option('--model <id>', 'run against real Claude (needs ANTHROPIC_API_KEY) instead of the simulated model')
    .option('--json', 'print summary.json to stdout instead of tables', false)
    .addHelpText(
      'after',
      '\nExample:\n  spiralbench run --scenario fetch-transform-write --arms none,article --seeds 50\n\nEvery run replays byte-for-byte: spiralbench replay --scenario <id> --arm <arm> --seed <n>',
    )
    .action(async (flags: RunFlags) => {
      const scenarios = flags.scenario.map((id) => loadScenario(id));
      const arms = resolveArms(flags.arms);
      const model = await chooseModel(flags);
      const outDir = resolve(flags.out);
      const total = scenarios.length * arms.length * flags.seeds;
      const progress = process.stderr.isTTY && total >= 2000;
      const summary = await runSweep({
        scenarios,
        arms,
        seeds: flags.seeds,
        baseSeed: flags.seed,
        sweepSeed: flags.sweepSeed,
        model,
        outDir,
        onProgress: progress
          ? (done, all) => {
              if (done % 500 === 0 || done === all) process.stderr.write(`\r${done}/${all} runs`);
              if (done === all) process.stderr.write('\n');
            }
          : () => {},
      });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${renderCellTables(summary.cells, { color: process.stdout.isTTY === true })}\n`);
      process.stdout.write(`\nmodel: ${summary.model} · sweep seed ${summary.sweep_seed} · run seeds ${flags.seed}..${flags.seed + flags.seeds - 1}\n`);
      process.stdout.write(`results: ${outDir}/{runs.jsonl,runs.csv,summary.json}\n`);
    });
}
