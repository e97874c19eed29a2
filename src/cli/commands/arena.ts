import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveArms } from '../../arms/arms.js';
import { checkAgentSweep } from '../../arms/agent-checks.js';
import { loadScenarioSources } from '../../sweep/scenario-source.js';
import { loadEnsemble } from '../../scenarios/persona-ensemble.js';
import { wallClock } from '../../clock/wall-clock.js';
import { installCommand, installedPeers, missingPackages, PEERS } from '../../peers/peer-registry.js';
import { leaderboard, renderLeaderboard } from '../../report/leaderboard.js';
import { readSweep } from '../../report/read-sweep.js';
import { UserInputError } from '../../user-input-error.js';
import { commaList, nonNegativeInt, seedCount, workerCount } from '../parse.js';
import { sweepProgress } from '../progress.js';
import { writeSweepMeta } from '../sweep-meta.js';
import { sweepUntilInterrupted } from '../sweep-until-interrupted.js';
import { colourStdout } from '../terminal-capabilities.js';
import { outputFolder } from '../output-folder.js';
import { optionAlias } from '../option-alias.js';
import { agentArms, checkAgentArms } from '../../arms/agent-arm.js';
import { inProcessModel } from '../../run/model-source.js';
import { cliCommand } from '../invocation.js';

interface ArenaFlags {
  readonly scenarios: string[];
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly workers: number;
  readonly out: string;
  readonly resume: boolean;
  readonly overwrite: boolean;
  readonly ensemble?: string;
  readonly agent: string[];
}

/** Our three reference arms, then every installed peer framework. */
export const ARENA_ARMS = ['none', 'article', 'all'] as const;

export function registerArena(program: Command): void {
  program
    .command('arena')
    .description(
      'Our loop (none, article, all) against every installed peer framework on the same scenarios, seeds and faults; prints a leaderboard.',
    )
    .requiredOption(
      '-s, --scenarios <ids>',
      'scenario ids or .yaml paths, comma-separated (see `spiralbench list`)',
      commaList,
    )
    .option(
      '--agent <path>',
      'your own agent (a defineAgent module; path#export picks an export) in the arena as agent:<name>; repeatable or comma-separated (docs/agents.md)',
      (value: string, previous: string[]) => [...previous, ...commaList(value)],
      [] as string[],
    )
    .option('-n, --seeds <count>', 'runs per scenario and arm (at most 1000000000)', seedCount, 100)
    .option(
      '--first-seed <n>',
      'first run seed; runs use n, n+1, ... (n + seeds at most 2^53 - 1; --seed is an alias)',
      nonNegativeInt,
      1,
    )
    .addOption(optionAlias('--seed <n>', 'firstSeed', nonNegativeInt))
    .option('--sweep-seed <n>', 'namespace of every random stream in the sweep', nonNegativeInt, 0)
    .option(
      '-w, --workers <n>',
      'worker threads (1 runs inline; at most 4 per core); results are identical for any count',
      workerCount,
      availableParallelism(),
    )
    .option(
      '-o, --out <dir>',
      'results folder (runs.jsonl, runs.csv, summary.json, as `run` writes them)',
      outputFolder,
      'results/arena',
    )
    .option(
      '--resume',
      'continue the interrupted arena in --out (same flags): finished runs are kept, the rest are run',
      false,
    )
    .option(
      '--overwrite',
      'delete the arena --out holds, finished or interrupted, and start over (without it, such a folder is refused; --discard is an alias)',
      false,
    )
    .addOption(optionAlias('--discard', 'overwrite'))
    .option(
      '--ensemble <name>',
      "every arm across a persona ensemble, paired by seed: 'default' or a file from `spiralbench calibrate` (see `run --help`)",
    )
    .addHelpText(
      'after',
      [
        '',
        'The arena is a normal sweep: the arms are none, article and all (our loop) and',
        `peer:<name> for each installed peer framework (${PEERS.map((peer) => peer.arm).join(', ')}).`,
        'Every arm meets the same world, the same seeded tool faults and the same simulated',
        'model behind the same model faults; each peer drives it through its own real client.',
        'The board ranks arms by success (the right outcome: escalation where the task is',
        'impossible) with its 95% Wilson interval, then by p95 tool calls and p95 input',
        'tokens (pooled over the scenarios), and shows duplicate side effects.',
        'Peer settings (loop limits, retries, middleware) are in summary.json under arms.',
        'See docs/peers.md. Compare or report on the folder like any other sweep.',
        '',
        'Example:',
        '  spiralbench arena --scenarios fetch-transform-write,send-email-partial-write,search-thrash,model-outage --seeds 500',
      ].join('\n'),
    )
    .action(async (flags: ArenaFlags, command: Command) => {
      const scenarios = await loadScenarioSources(flags.scenarios);
      const repeated = scenarios.map(({ scenario }) => scenario.id).filter((id, i, ids) => ids.indexOf(id) !== i);
      if (repeated.length > 0)
        throw UserInputError.single(
          '--scenarios',
          '',
          `each scenario once; repeated: ${[...new Set(repeated)].join(', ')}`,
        );
      const peers = installedPeers();
      for (const peer of PEERS.filter((entry) => !peers.includes(entry))) {
        process.stderr.write(
          `${peer.arm} is not in the arena: ${missingPackages(peer).join(', ')} not installed (add with: ${installCommand(peer)})\n`,
        );
      }
      const agents = await agentArms(flags.agent, process.cwd());
      const arms = resolveArms([...ARENA_ARMS, ...peers.map((peer) => peer.arm), ...agents.keys()], '--arms', agents);
      const definitions = await checkAgentArms(arms, () => ({ source: '--agent' }));
      const ensemble = flags.ensemble === undefined ? undefined : loadEnsemble(flags.ensemble);
      checkAgentSweep(
        arms,
        scenarios.map(({ scenario }) => scenario),
        inProcessModel(),
        { agents: definitions },
      );
      const outDir = resolve(flags.out);
      const total = scenarios.length * arms.length * flags.seeds;
      const startedAt = wallClock.iso();
      const started = wallClock.ms();
      const progress = sweepProgress(total);
      let workers = flags.workers;
      const summary = await sweepUntilInterrupted({
        scenarios,
        arms,
        seeds: flags.seeds,
        baseSeed: flags.firstSeed,
        sweepSeed: flags.sweepSeed,
        workers: flags.workers,
        onStart: (started) => (workers = started.workers),
        outDir,
        resume: flags.resume,
        discard: flags.overwrite,
        // results/arena is the scratch folder: a finished arena there is replaced; a folder named with -o is kept.
        defaultFolder: command.getOptionValueSource('out') === 'default',
        ...(ensemble === undefined ? {} : { ensemble }),
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      const seconds = (wallClock.ms() - started) / 1000;
      writeSweepMeta(outDir, {
        started_at: startedAt,
        finished_at: wallClock.iso(),
        wall_seconds: Math.round(seconds * 10) / 10,
        workers,
      });
      process.stderr.write(
        `${total} runs in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} runs/s, ${workers} worker(s))\n`,
      );
      const runs = await readSweep(outDir);
      const board = leaderboard(runs.cells, summary.cells);
      process.stdout.write(
        `Arena: ${scenarios.map(({ scenario }) => scenario.id).join(', ')} · ${flags.seeds} seeds each (${flags.firstSeed}..${flags.firstSeed + flags.seeds - 1}) · sweep seed ${summary.sweep_seed}\n`,
      );
      process.stdout.write(`${renderLeaderboard(board, { color: colourStdout() })}\n`);
      process.stdout.write(
        `results: ${outDir}/{runs.jsonl,runs.csv,summary.json} · per scenario: ${cliCommand()} report ${flags.out}\n`,
      );
    });
}
