import type { Command } from 'commander';
import { resolveScenarioSource } from '../../sweep/scenario-source.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { ModelServer } from '../../live/model-server.js';
import { nonNegativeInt } from '../parse.js';

interface ServeModelFlags {
  readonly scenario: string;
  readonly port: number;
  readonly host: string;
  readonly sweepSeed: number;
  readonly faults: boolean;
}

export function registerServeModel(program: Command): void {
  program
    .command('serve-model')
    .description(
      "Serve one scenario's simulated model over HTTP (Anthropic Messages and OpenAI Chat Completions) until Ctrl-C, for clients and frameworks that take a base URL.",
    )
    .requiredOption('-s, --scenario <id>', 'scenario id or .yaml path: its persona and plan drive the model')
    .option('--port <n>', 'port (0 picks a free one)', nonNegativeInt, 8787)
    .option('--host <address>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--sweep-seed <n>', "namespace of the model's random streams", nonNegativeInt, 0)
    .option('--faults', "inject the scenario's model faults (and malformed arguments on the chat path)", false)
    .addHelpText(
      'after',
      [
        '',
        'Each run is a path prefix with its seed; the same seed gives the same replies as in-process:',
        '  new Anthropic({ baseURL: "http://127.0.0.1:8787/runs/7", apiKey: "local", maxRetries: 0 })',
        '  new OpenAI({ baseURL: "http://127.0.0.1:8787/runs/7/v1", apiKey: "local", maxRetries: 0 })',
        '',
        'With --faults, each seed keeps its fault attempt counts between requests. A second run of the same',
        'seed (another arm, a repeat) takes a tag of its own to start afresh, as an in-process run does:',
        '  http://127.0.0.1:8787/runs/7~none-2   ·   GET .../runs/7~none-2/faults: the faults injected so far',
        '`spiralbench run --live --model-url http://127.0.0.1:8787` does this for every run (see docs/live.md).',
      ].join('\n'),
    )
    .action(async (flags: ServeModelFlags) => {
      const { scenario } = resolveScenarioSource(flags.scenario);
      const server = new ModelServer({
        scenario,
        clock: new VirtualClock(),
        sweepSeed: flags.sweepSeed,
        faults: flags.faults,
        host: flags.host,
        port: flags.port,
      });
      const base = await server.listen();
      // A dataset scenario's model plays one task a seed: the client must know which.
      const tasks =
        scenario.dataset === null
          ? ''
          : `  a dataset of ${scenario.dataset.tasks.length} tasks: seed s plays task (s - 1) mod ${scenario.dataset.tasks.length} (seed 1: ${scenario.dataset.tasks[0]!.id}; docs/datasets.md)\n`;
      process.stdout.write(
        `serving ${scenario.id}'s simulated model (live: real sockets, real time)\n  Anthropic Messages:      POST ${base}/runs/<seed>/v1/messages\n  OpenAI Chat Completions: POST ${base}/runs/<seed>/v1/chat/completions\n${tasks}Ctrl-C stops it.\n`,
      );
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await server.close();
    });
}
