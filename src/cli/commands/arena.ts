import { resolve } from 'node:path';
import type { Command } from 'commander';
import { resolveArms } from '../../arms/arms.js';
import { checkAgentSweep } from '../../arms/agent-checks.js';
import { loadEnsemble } from '../../scenarios/persona-ensemble.js';
import { installCommand, installedPeers, missingPackages, PEERS } from '../../peers/peer-registry.js';
import { leaderboard, renderLeaderboard } from '../../report/leaderboard.js';
import { readSweep } from '../../report/read-sweep.js';
import { sweepProgress } from '../progress.js';
import { colourStdout } from '../terminal-capabilities.js';
import { agentArms, checkAgentArms } from '../../arms/agent-arm.js';
import { inProcessModel } from '../../run/model-source.js';
import { configChangeNotes, configChangeProblems } from '../config-change-check.js';
import { UserInputError } from '../../user-input-error.js';
import { cliCommand } from '../invocation.js';
import { distinctScenarios, type SweepFlags, sweepOptions, sweepTimeLine, timedSweep } from '../sweep-options.js';

type ArenaFlags = SweepFlags;

/** Our three reference arms, then every installed peer framework. */
export const ARENA_ARMS = ['none', 'article', 'all'] as const;

export function registerArena(program: Command): void {
  const arena = program
    .command('arena')
    .description(
      'Our loop (none, article, all) against every installed peer framework on the same scenarios, seeds and faults; prints a leaderboard.',
    );
  sweepOptions.scenarios(arena);
  sweepOptions.agent(arena, 'in the arena as agent:<name>');
  sweepOptions.seeds(arena, 100);
  sweepOptions.workers(arena);
  sweepOptions.out(arena, 'results/arena', 'results folder (runs.jsonl, runs.csv, summary.json, as `run` writes them)');
  sweepOptions.resume(
    arena,
    'arena',
    'delete the arena --out holds, finished or interrupted, and start over (without it, such a folder is refused; --discard is an alias)',
  );
  sweepOptions
    .ensemble(
      arena,
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
      const scenarios = await distinctScenarios(flags.scenarios);
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
      const changeProblems = configChangeProblems(scenarios, undefined);
      if (changeProblems.length > 0) throw new UserInputError(changeProblems);
      for (const note of configChangeNotes(
        arms,
        scenarios.map(({ scenario }) => scenario),
      ))
        process.stderr.write(`${note}\n`);
      const outDir = resolve(flags.out);
      const total = scenarios.length * arms.length * flags.seeds;
      const progress = sweepProgress(total);
      const { summary, seconds, workers } = await timedSweep({
        scenarios,
        arms,
        seeds: flags.seeds,
        baseSeed: flags.firstSeed,
        sweepSeed: flags.sweepSeed,
        workers: flags.workers,
        outDir,
        resume: flags.resume,
        discard: flags.overwrite,
        // results/arena is the scratch folder: a finished arena there is replaced; a folder named with -o is kept.
        defaultFolder: command.getOptionValueSource('out') === 'default',
        ...(ensemble === undefined ? {} : { ensemble }),
        ...(progress === undefined ? {} : { onProgress: progress }),
      });
      process.stderr.write(sweepTimeLine(total, seconds, `${workers} worker(s)`));
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
