import type { Command } from 'commander';
import { type Arm, resolveArms } from '../../arms/arms.js';
import { agentArms, checkAgentArms } from '../../arms/agent-arm.js';
import { recordedArms, shownAgentSpec } from '../../arms/recorded-arms.js';
import { runFooter } from '../../report/run-footer.js';
import { runOne } from '../../arms/run-one.js';
import { replayCommand } from '../../sweep/replay-command.js';
import type { AgentEvent } from '../../loop/events.js';
import { renderTranscript } from '../../report/transcript.js';
import { loadArmsFile } from '../../arms/arms-file.js';
import { loadScenarioSource, type ScenarioSource } from '../../sweep/scenario-source.js';
import { ensembleCast, memberFor } from '../../sweep/ensemble-cast.js';
import type { Scenario } from '../../scenarios/loader.js';
import { loadEnsemble } from '../../scenarios/persona-ensemble.js';
import { UserInputError } from '../../user-input-error.js';
import { chooseModel } from '../model-choice.js';
import { recordedRun, replayRecorded } from '../served-replay.js';
import { nonNegativeInt } from '../parse.js';
import { asTyped } from '../invocation.js';

interface ReplayFlags {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweepSeed: number;
  readonly via: string;
  readonly armsFile?: string;
  readonly agent?: string;
  readonly stream: boolean;
  readonly promptCache: boolean;
  readonly ensemble?: string;
  readonly member?: number;
  readonly results?: string;
  readonly json: boolean;
}

/**
 * `replay --json` (README, "Machine-readable output"): the run's record as runs.jsonl holds
 * it, its events, its transcript and its final world. A recorded run (`--results`) has the
 * events and outbox its trace kept, and no transcript beyond the prompt.
 */
export interface ReplayJson {
  /** Bumped when a field changes meaning or goes away; new fields may appear without it. */
  readonly version: 1;
  /** false for `--results`: read from the folder, not run again. */
  readonly rerun: boolean;
  readonly record: unknown;
  readonly events: readonly unknown[];
  readonly messages: readonly unknown[];
  readonly world: unknown;
  /** The command that replays it again; null for a recorded run. */
  readonly replay: string | null;
}

const printJson = (value: ReplayJson) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description(
      'Re-run one run from its seed and print its whole transcript: messages, tool calls, injected faults, guard events, verdict.',
    )
    .requiredOption('-s, --scenario <id>', 'scenario id or .yaml path, as given to run')
    .requiredOption('-a, --arm <name>', 'arm name')
    .requiredOption('--seed <n>', 'the run seed', nonNegativeInt)
    .option('--sweep-seed <n>', 'the sweep seed the run belonged to', nonNegativeInt, 0)
    .option('--via <path>', "'in-process' or 'sdk' (the real client of the scenario's API)", 'in-process')
    .option('--arms-file <path>', 'the arms file the run used, for a custom arm')
    .option('--agent <path>', 'the agent module (path#export) the run used, for an agent:<name> arm from --agent')
    .option('--stream', 'stream every model call, as a run with --stream did (docs/streaming.md)', false)
    .option('--no-prompt-cache', 'send requests without prompt-cache breakpoints, as a run with --no-prompt-cache did')
    .option('--ensemble <name>', "the persona ensemble the run's sweep used: 'default' or its file")
    .option(
      '--member <n>',
      'the ensemble member that played the run (its record says; default: (seed - 1) mod members, as a sweep from seed 1 assigns it)',
      nonNegativeInt,
    )
    .option(
      '--results <dir>',
      'print the run as this results folder recorded it, without running it again (how a served run replays: its agent ran in another process)',
    )
    .option('--json', 'print the run as JSON (record, events, messages, world) instead of a transcript', false)
    .action(async (flags: ReplayFlags, replay: Command) => {
      if (flags.results !== undefined) {
        const run = {
          scenario: flags.scenario,
          arm: flags.arm,
          seed: flags.seed,
          sweepSeed: replay.getOptionValueSource('sweepSeed') === 'cli' ? flags.sweepSeed : undefined,
        };
        if (!flags.json) {
          process.stdout.write(await replayRecorded(flags.results, run));
          return;
        }
        const { record, trace } = await recordedRun(flags.results, run);
        printJson({
          version: 1,
          rerun: false,
          record,
          events: trace?.events ?? [],
          messages: trace === undefined ? [] : [{ role: 'user', content: trace.prompt }],
          world: trace === undefined ? null : { outbox: trace.outbox },
          replay: null,
        });
        return;
      }
      const source = await loadScenarioSource(flags.scenario);
      const played = playedBy(source, flags);
      const { scenario } = played;
      const fromFile = flags.armsFile === undefined ? new Map<string, Arm>() : await loadArmsFile(flags.armsFile);
      const agents = await agentArms(flags.agent === undefined ? [] : [flags.agent], process.cwd());
      const custom = new Map<string, Arm>([...fromFile, ...agents]);
      const [arm] = resolveArms([flags.arm], '--arm', custom);
      await checkAgentArms([arm!], () =>
        agents.has(arm!.name) ? { source: '--agent' } : { source: flags.armsFile!, field: `arms (${arm!.name}).agent` },
      );
      const events: AgentEvent[] = [];
      const { record, result, verdict, world } = await runOne({
        sweepSeed: flags.sweepSeed,
        scenario,
        arm: arm!,
        seed: flags.seed,
        model: await chooseModel({ via: flags.via }),
        ...(flags.stream ? { stream: true } : {}),
        ...(flags.promptCache ? {} : { promptCache: false }),
        member: played.member,
        onEvent: (event) => events.push(event),
      });
      // Named as they were given, so the line works wherever this command did.
      const command = replayCommand({
        scenario: flags.scenario,
        arm: arm!.name,
        seed: flags.seed,
        sweepSeed: flags.sweepSeed,
        ...(flags.armsFile !== undefined && fromFile.has(arm!.name) ? { armsFile: flags.armsFile } : {}),
        ...(agents.has(arm!.name) ? { agent: flags.agent! } : {}),
        ...(played.member === undefined ? {} : { ensemble: flags.ensemble!, member: played.member }),
        viaSdk: flags.via === 'sdk',
        stream: flags.stream,
        promptCache: flags.promptCache,
      });
      if (flags.json) {
        printJson({ version: 1, rerun: true, record, events, messages: result.messages, world, replay: command });
        return;
      }
      process.stdout.write(
        renderTranscript({
          header: [
            `${scenario.id} · arm ${arm!.name} · seed ${flags.seed}${record.task === undefined ? '' : ` · task ${record.task}`} · sweep seed ${flags.sweepSeed} · model ${record.model}`,
            ...played.note,
            arm!.peer !== undefined
              ? `peer framework: ${JSON.stringify(arm!.peer)} (its loop runs inside the framework: its tool calls below, then its conversation as read off the wire)`
              : arm!.agent !== undefined
                ? `agent: ${arm!.agent.kind === 'module' ? shownAgentSpec(arm!.agent) : arm!.agent.id} settings ${JSON.stringify(arm!.agent.settings)} (its loop runs inside the agent: its tool calls below, then its conversation as read off the wire)`
                : `guards: ${
                    arm!.guards.length === 0
                      ? '(none)'
                      : recordedArms([arm!])[0]!
                          .guards.map((guard) => JSON.stringify(guard))
                          .join(' ')
                  }`,
          ],
          events,
          messages: result.messages,
          world,
          footer: [
            `outcome: ${record.outcome}${result.outcome.kind === 'completed' || result.outcome.kind === 'budget_exhausted' ? ` — final answer: ${result.outcome.finalText}` : result.outcome.kind === 'failed' ? ` — ${result.outcome.reason}` : ''}`,
            ...runFooter(record, verdict),
            `replay: ${asTyped(command)}`,
          ],
        }),
      );
    });
}

/**
 * The scenario as the run's persona played it: an ensemble member when the sweep had an
 * ensemble and the scenario uses the default persona, else the scenario's own persona.
 */
function playedBy(
  source: ScenarioSource,
  flags: ReplayFlags,
): { scenario: Scenario; member: number | undefined; note: string[] } {
  if (flags.ensemble === undefined) {
    if (flags.member !== undefined)
      throw UserInputError.single('--member', '', 'an --ensemble to take the member from');
    return { scenario: source.scenario, member: undefined, note: [] };
  }
  const ensemble = loadEnsemble(flags.ensemble);
  const cast = ensembleCast(source.scenario, source.texts, ensemble.members);
  if (cast === undefined)
    return {
      scenario: source.scenario,
      member: undefined,
      note: [`persona: ${source.texts.persona.id}, the scenario's own (an ensemble plays only the default persona)`],
    };
  const member = flags.member ?? memberFor(flags.seed, 1, cast.length);
  if (member >= cast.length)
    throw UserInputError.single(
      '--member',
      '',
      `a member of ${flags.ensemble} (0 to ${cast.length - 1}); got ${member}`,
    );
  return {
    scenario: cast[member]!,
    member,
    note: [`persona: member ${member} of ensemble ${ensemble.name} (${cast.length} members)`],
  };
}
