import Table from 'cli-table3';
import type { Command } from 'commander';
import { resolveArms } from '../../arms/arms.js';
import { benchLoopSteps } from '../../perf/loop-step-bench.js';
import { benchSweepOverhead } from '../../perf/sweep-overhead-bench.js';
import { benchTokenAccounting } from '../../perf/token-accounting-bench.js';
import { resolveScenarioSource } from '../../sweep/scenario-source.js';
import { tableFrame } from '../../report/terminal-table.js';
import { commaList, positiveInt } from '../parse.js';
import { colourStdout } from '../terminal-capabilities.js';

interface BenchFlags {
  readonly scenario: string;
  readonly arms: string[];
  readonly seeds: number;
  readonly time: number;
  readonly sdk: boolean;
  readonly checkpoints: boolean;
  readonly tokens: boolean;
  readonly sweep: boolean;
  readonly sweepRuns: number;
  readonly stream: boolean;
  readonly asyncTools: boolean;
  readonly json: boolean;
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description(
      'Measure the harness itself: µs per loop step for a bare loop and for each arm, side by side in one process (tinybench).',
    )
    .option('-s, --scenario <id>', 'scenario to run', 'fetch-transform-write')
    .option('-a, --arms <names>', 'arms to measure beside the bare loop', commaList, ['none', 'article', 'all'])
    .option('-n, --seeds <count>', 'runs per benchmark iteration', positiveInt, 20)
    .option('--time <ms>', 'measuring time per task', positiveInt, 1500)
    .option('--no-sdk', 'skip measuring the article arm with the simulated model behind the real Anthropic SDK')
    .option('--no-checkpoints', 'skip measuring the article arm with checkpoints (in memory and in a journal file)')
    .option(
      '--no-stream',
      'skip measuring the article arm with every reply streamed (in-process, and through the SDK unless --no-sdk)',
    )
    .option('--no-async-tools', 'skip measuring the article arm with the scenario tools answering through promises')
    .option(
      '--no-tokens',
      'skip measuring token accounting (the estimator, cached and not, and the exact cl100k count)',
    )
    .option('--no-sweep', 'skip measuring what a sweep adds to its runs (the same seeds as a sweep and as bare runs)')
    .option('--sweep-runs <count>', 'runs per iteration when measuring the sweep', positiveInt, 2000)
    .option('--json', 'print the rows as JSON', false)
    .action(async (flags: BenchFlags) => {
      resolveArms(flags.arms);
      const source = resolveScenarioSource(flags.scenario);
      const { scenario } = source;
      const rows = await benchLoopSteps({
        scenario,
        arms: flags.arms,
        seeds: flags.seeds,
        timeMs: flags.time,
        sdk: flags.sdk,
        checkpoints: flags.checkpoints,
        stream: flags.stream,
        asyncTools: flags.asyncTools,
      });
      const tokenRows = flags.tokens
        ? await benchTokenAccounting({ scenario, seeds: flags.seeds, timeMs: flags.time })
        : [];
      const sweepRows = flags.sweep
        ? await benchSweepOverhead({ source, runs: flags.sweepRuns, timeMs: flags.time })
        : [];
      if (flags.json) {
        const extra = { ...(flags.tokens ? { tokens: tokenRows } : {}), ...(flags.sweep ? { sweep: sweepRows } : {}) };
        process.stdout.write(
          `${JSON.stringify(Object.keys(extra).length === 0 ? rows : { steps: rows, ...extra }, null, 2)}\n`,
        );
        return;
      }
      const table = new Table(
        tableFrame(['task', 'steps / iteration', 'µs per step', '± %', 'runs / s', '× bare loop'], colourStdout()),
      );
      for (const row of rows) {
        table.push([
          row.task,
          row.steps,
          row.usPerStep.toFixed(2),
          row.rme.toFixed(1),
          Math.round(row.runsPerSecond).toLocaleString('en-US'),
          row.ratioToBare.toFixed(2),
        ]);
      }
      process.stdout.write(
        `${flags.scenario}, ${flags.seeds} seeds per iteration, node ${process.version}\n${table.toString()}\n`,
      );
      if (sweepRows.length > 0) {
        const sweep = new Table(
          tableFrame([`sweep of ${flags.sweepRuns} runs (none)`, 'µs per run', '± %', '× loop alone'], colourStdout()),
        );
        for (const row of sweepRows)
          sweep.push([row.task, row.usPerRun.toFixed(2), row.rme.toFixed(1), row.ratioToLoop.toFixed(2)]);
        process.stdout.write(`${sweep.toString()}\n`);
      }
      if (tokenRows.length === 0) return;
      const tokens = new Table(
        tableFrame(['token accounting', 'requests / iteration', 'µs per step', '± %'], colourStdout()),
      );
      for (const row of tokenRows) tokens.push([row.task, row.steps, row.usPerStep.toFixed(3), row.rme.toFixed(1)]);
      process.stdout.write(`${tokens.toString()}\n`);
    });
}
