import type { Command } from 'commander';
import { resolveArms } from '../../bench/arms.js';
import { describeFailure } from '../../bench/failure-reason.js';
import { runOne } from '../../bench/run-one.js';
import { replayCommand } from '../../bench/replay-command.js';
import type { AgentEvent } from '../../loop/events.js';
import { renderTranscript } from '../../report/transcript.js';
import { loadArmsFile } from '../../bench/arms-file.js';
import { resolveScenarioSource } from '../../bench/scenario-source.js';
import { chooseModel } from '../model-choice.js';
import { nonNegativeInt } from '../parse.js';

interface ReplayFlags {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  readonly sweepSeed: number;
  readonly via: string;
  readonly armsFile?: string;
  readonly stream: boolean;
}

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
    .option('--stream', 'stream every model call, as a run with --stream did (docs/streaming.md)', false)
    .action(async (flags: ReplayFlags) => {
      const { scenario } = resolveScenarioSource(flags.scenario);
      const custom = flags.armsFile === undefined ? new Map() : loadArmsFile(flags.armsFile);
      const [arm] = resolveArms([flags.arm], '--arm', custom);
      const events: AgentEvent[] = [];
      const { record, result, verdict, world } = await runOne({
        sweepSeed: flags.sweepSeed,
        scenario,
        arm: arm!,
        seed: flags.seed,
        model: await chooseModel({ via: flags.via }),
        ...(flags.stream ? { stream: true } : {}),
        onEvent: (event) => events.push(event),
      });
      // Named as they were given, so the line works wherever this command did.
      const command = replayCommand({
        scenario: flags.scenario,
        arm: arm!.name,
        seed: flags.seed,
        sweepSeed: flags.sweepSeed,
        ...(flags.armsFile !== undefined && custom.has(arm!.name) ? { armsFile: flags.armsFile } : {}),
        viaSdk: flags.via === 'sdk',
        stream: flags.stream,
      });
      process.stdout.write(
        renderTranscript({
          header: [
            `${scenario.id} · arm ${arm!.name} · seed ${flags.seed} · sweep seed ${flags.sweepSeed} · model ${record.model}`,
            arm!.peer === undefined
              ? `guards: ${arm!.guards.length === 0 ? '(none)' : arm!.guards.map((guard) => JSON.stringify(guard)).join(' ')}`
              : `peer framework: ${JSON.stringify(arm!.peer)} (its transcript stays inside the framework: tool calls and results below)`,
          ],
          events,
          messages: result.messages,
          world,
          footer: [
            `outcome: ${record.outcome}${result.outcome.kind === 'completed' || result.outcome.kind === 'budget_exhausted' ? ` — final answer: ${result.outcome.finalText}` : result.outcome.kind === 'failed' ? ` — ${result.outcome.reason}` : ''}`,
            ...(record.failure_reason === undefined
              ? []
              : [`failure_reason: ${describeFailure(record.failure_reason)}`]),
            `verdict: ${verdict.verdict} — ${verdict.reason}`,
            `tool calls ${record.tool_calls} · tool executions ${record.tool_executions} · model calls ${record.model_calls} · tokens ${record.input_tokens} in / ${record.output_tokens} out · ${(record.virtual_ms / 1000).toFixed(1)} s virtual`,
            `faults: ${
              Object.entries(record.faults)
                .filter(([, n]) => n > 0)
                .map(([kind, n]) => `${kind} ${n}`)
                .join(', ') || 'none'
            }`,
            `replay: ${command}`,
          ],
        }),
      );
    });
}
