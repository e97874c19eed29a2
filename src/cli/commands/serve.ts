import { existsSync, readdirSync, rmdirSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { loadScenarioSource } from '../../sweep/scenario-source.js';
import { checkSeeds } from '../../sweep/sweep-plan.js';
import { wallClock } from '../../clock/wall-clock.js';
import { IdleWatch } from '../../serve/idle-watch.js';
import { servedFailure } from '../../serve/served-failure.js';
import { claimServedFolder } from '../../serve/served-folder.js';
import { ServedResults } from '../../serve/served-results.js';
import { exportServedOtel } from '../../serve/served-otel.js';
import { servedSweepIdentity, ServedSweep } from '../../serve/served-sweep.js';
import { ServeServer } from '../../serve/serve-server.js';
import { ServeRefusal } from '../../serve/serve-refusal.js';
import { isDiskFull, ResultsWriteError } from '../../results/results-fs.js';
import { UserInputError } from '../../user-input-error.js';
import { otelFile } from '../otel-file.js';
import { cassetteUse, replaySource, startRecording } from '../cassette-flags.js';
import type { CassetteUse } from '../../cassettes/cassette-client.js';
import { inProcessModel } from '../../run/model-source.js';
import { optionAlias } from '../option-alias.js';
import { outputFolder } from '../output-folder.js';
import { nonNegativeInt, nonNegativeNumber, seedCount } from '../parse.js';
import { listenOrSay, portNumber } from '../listen-flags.js';
import { RunInterrupted } from '../run-interrupted.js';
import { writeSweepMeta } from '../sweep-meta.js';
import { cliCommand } from '../invocation.js';

interface ServeFlags {
  readonly scenario: string;
  readonly seeds: number;
  readonly firstSeed: number;
  readonly sweepSeed: number;
  readonly out: string;
  readonly arm: string;
  readonly port: number;
  readonly host: string;
  readonly idleTimeout: number;
  readonly overwrite: boolean;
  readonly otel?: string;
  readonly record?: string;
  readonly replay?: string;
  readonly allowOrigin: readonly string[];
  readonly allowHost: readonly string[];
}

const HELP = `
Protocol (every POST body JSON, sent as content-type: application/json; the printed line names the real port):
  POST /runs  {"seed": 7} or {} for the next seed   -> 201 {run_id, seed, system, prompt, messages,
       tools, model, max_tokens, anthropic_base_url, openai_base_url, mcp_url, end_url}
  the run's model:  new Anthropic({ baseURL: anthropic_base_url, apiKey: "unused", maxRetries: 0 })
                    new OpenAI({ baseURL: openai_base_url, apiKey: "unused", maxRetries: 0 })
  the run's tools:  an MCP server (Streamable HTTP, stateless) at mcp_url
  POST /runs/<run_id>/end  {"outcome": "completed", "final_text": "..."}   -> the run's RunRecord
       outcome: completed | escalated (+ "escalation") | failed (+ "reason") | max_iterations
  GET /  the sweep: URLs, runs ended, runs in flight
  Unknown run: 404; an ended run: 409 (the same ending sent again: 200, the same record); a seed
  outside the sweep: 400; a seed already started: 409.
  A Host other than localhost, 127.0.0.1, [::1] (or --host, --allow-host) with serve's port: 403;
  an Origin header (a web page) not given to --allow-origin: 403; a POST not application/json: 415.

Example:
  spiralbench serve -s fetch-transform-write -n 20 -o results/served --arm my-agent
  # then, with the URLs it prints:
  curl -s -X POST http://127.0.0.1:8788/runs -H 'content-type: application/json' -d '{}'
  python examples/serve/agent.py http://127.0.0.1:8788 20

Faults: each model call and tool call meets the fault its seed draws, as in-process, in the
order the run's calls reach serve. Send one run's tool calls one at a time for reproducible
runs: calls of one run sent at once still meet faults at the scenario's rates, but which call
meets which is their arrival order (runs in flight at once are independent). Your
agent's key (Authorization, x-api-key) is never read, stored or echoed. A run not heard from
for --idle-timeout seconds (wall clock) is recorded as failed; Ctrl-C records the runs in
flight as failed and leaves the folder marked unfinished (serve cannot resume it). Nothing in
--out changes until the first run ends; a folder holding runs needs --overwrite. Once every seed
has ended, the folder is complete (report, compare, replay --results read it) and serve exits.
See docs/serve.md.`;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      "Serve one sweep to an agent in another process: the scenario's simulated model (Anthropic Messages and OpenAI Chat Completions), its tools as an MCP server, and a run API that returns each run's verdict.",
    )
    .requiredOption('-s, --scenario <id>', 'scenario id or .yaml path')
    .option('-n, --seeds <count>', 'runs in the sweep (the examples run 20 by default)', seedCount, 20)
    .option('--first-seed <n>', 'first run seed; runs use n, n+1, ...', nonNegativeInt, 1)
    .option('--sweep-seed <n>', 'namespace of every random stream in the sweep', nonNegativeInt, 0)
    .option('-o, --out <dir>', 'results folder', outputFolder, 'results/served')
    .option('--arm <label>', 'your agent\'s name: records name the arm "agent:<label>"', 'served')
    .option('--port <n>', 'port (0 picks a free one)', portNumber, 8788)
    .option(
      '--host <address>',
      'address to listen on (loopback by default; anything else is open to the network)',
      '127.0.0.1',
    )
    .addOption(
      new Option(
        '--allow-host <name>',
        'also answer requests whose Host header names this (a container or machine name); repeatable',
      )
        .argParser(collect)
        .default([], 'loopback names only'),
    )
    .addOption(
      new Option(
        '--allow-origin <origin>',
        'let a web page at this origin (scheme://host:port) drive serve; other browser requests get 403; repeatable',
      )
        .argParser(collect)
        .default([], 'none'),
    )
    .option(
      '--idle-timeout <s>',
      'end a run as failed after this many wall-clock seconds without a request for it (0: never)',
      nonNegativeNumber,
      300,
    )
    .option(
      '--overwrite',
      'delete the runs of a sweep (finished or not) left in --out and start over (--discard is an alias)',
      false,
    )
    .addOption(optionAlias('--discard', 'overwrite'))
    .option(
      '--otel <file>',
      'once every run has ended, write each as OpenTelemetry spans to this OTLP/JSON file (docs/otel.md)',
    )
    .option(
      '--record <dir>',
      "record every run's model calls into a cassette folder, to replay the sweep later against the same agent (docs/cassettes.md)",
    )
    .option(
      '--replay <dir>',
      "answer every run's model calls from a cassette folder --record wrote; a request the agent changed fails its run, naming the call and the part that differs",
    )
    .addHelpText('after', HELP)
    .action(async (flags: ServeFlags) => {
      await serve(flags);
    });
}

/** `--record` or `--replay`, as `run` takes them; serve's model is the simulated one, so a recording names it. */
function servedCassette(flags: ServeFlags): CassetteUse | undefined {
  const use = cassetteUse({
    ...(flags.record === undefined ? {} : { record: flags.record }),
    ...(flags.replay === undefined ? {} : { replay: flags.replay }),
    recordMissing: false,
    live: false,
    stream: false,
    sensitivity: false,
    via: 'in-process',
  });
  if (use?.mode === 'record') startRecording(use, inProcessModel());
  if (use?.mode === 'replay') replaySource(use);
  return use;
}

async function serve(flags: ServeFlags): Promise<void> {
  const label = flags.arm.trim();
  if (!/^[\w.-]+$/.test(label))
    throw UserInputError.single('--arm', '', `a label of letters, digits, '.', '_' or '-'; got '${flags.arm}'`);
  const otel = flags.otel === undefined ? undefined : otelFile(flags.otel);
  checkSeeds({ base: flags.firstSeed, count: flags.seeds });
  const cassette = servedCassette(flags);
  const source = { ...(await loadScenarioSource(flags.scenario)), ref: flags.scenario };
  const options = {
    source,
    arm: `agent:${label}`,
    seeds: { base: flags.firstSeed, count: flags.seeds },
    sweepSeed: flags.sweepSeed,
    ...(cassette === undefined ? {} : { cassette }),
  };
  // Nothing in the folder changes until the first run ends (ServedResults), so a start that fails loses nothing.
  const madeFolder = !existsSync(flags.out);
  const folder = claimServedFolder(flags.out, flags.overwrite);
  const startedAt = wallClock.iso();
  const started = wallClock.ms();
  const results = new ServedResults(folder, servedSweepIdentity(options));
  let finished: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const sweep = new ServedSweep({
    ...options,
    results,
    onEnded: (record, ended, total) => {
      process.stderr.write(`run ${record.seed}: ${record.verdict} (${record.outcome}) · ${ended}/${total} ended\n`);
      if (ended === total) finished();
    },
  });
  // Set when a record serve must store itself cannot be (a full disk): serve stops, rather than wait on a run nobody will end.
  let unstored: unknown;
  const idle = new IdleWatch(flags.idleTimeout, (id) => {
    const silent = servedFailure(
      'AgentWentSilent',
      `no request for ${flags.idleTimeout} s: the agent stopped without ending the run`,
    );
    const unstoredBy = (error: unknown) => {
      unstored = error;
      finished();
    };
    try {
      sweep.end(id, { returned: silent }).catch(unstoredBy);
    } catch (error) {
      unstoredBy(error);
    }
  });
  // Seeds never started are no run's to time out: when nothing at all is heard, say what serve waits for.
  const quiet = new IdleWatch(flags.idleTimeout, () => {
    const left = sweep.total - sweep.started;
    if (left > 0 && sweep.inFlight().length === 0)
      process.stderr.write(
        `waiting: no request for ${flags.idleTimeout} s and ${left} of ${sweep.total} seeds not started yet; serve ends once every seed has ended (POST /runs starts the next; Ctrl-C stops)\n`,
      );
    quiet.touch('sweep');
  });
  quiet.touch('sweep');
  const server = new ServeServer({
    sweep,
    host: flags.host,
    port: flags.port,
    allowHosts: flags.allowHost,
    allowOrigins: flags.allowOrigin,
    onStarted: (run) => {
      idle.touch(run.id);
      quiet.touch('sweep');
    },
    onActivity: (run) => {
      idle.touch(run.id);
      quiet.touch('sweep');
    },
    onEnded: (run) => idle.forget(run.id),
  });
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: recording the runs in flight as failed and stopping...\n`);
    stop.abort(signal);
    finished();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const base = await listen(server, flags);
    process.stdout.write(
      `${JSON.stringify({
        spiralbench: 'serve',
        scenario: source.scenario.id,
        arm: options.arm,
        seeds: { first: flags.firstSeed, count: flags.seeds },
        out: flags.out,
        ...server.urls(),
        idle_timeout_s: flags.idleTimeout,
        clock: 'runs keep virtual time; only --idle-timeout reads the wall clock',
      })}\n`,
    );
    if (!isLoopback(flags.host)) process.stderr.write(openNetworkWarning(flags, new URL(base).port));
    process.stderr.write(
      `serving ${flags.seeds} runs of ${source.scenario.id} as ${options.arm} at ${base} (POST /runs to start one; GET / for the protocol)\n`,
    );
    await done;
    idle.stop();
    quiet.stop();
    try {
      if (unstored !== undefined) throw unstored;
      if (stop.signal.aborted) {
        for (const run of sweep.inFlight())
          await sweep.end(run.id, {
            returned: servedFailure(
              'ServeStopped',
              `serve was stopped (${String(stop.signal.reason)}) while the run was in flight`,
            ),
          });
        if (!results.interrupt())
          throw new RunInterrupted(`stopped before any run ended: ${flags.out} was left as it was.`);
        throw new RunInterrupted(
          `stopped: ${sweep.ended} of ${sweep.total} runs ended and are written to ${flags.out}; the folder is marked unfinished (progress.json, no summary.json), so report, compare and --check refuse it. Serve cannot continue a sweep: serve again with --overwrite to start over.`,
        );
      }
      const { summary, traces, records } = sweep.summarize(flags.out);
      results.complete(records, summary, traces);
      writeSweepMeta(folder.dir, {
        started_at: startedAt,
        finished_at: wallClock.iso(),
        wall_seconds: Math.round((wallClock.ms() - started) / 100) / 10,
        workers: 1,
        stream: false,
      });
    } catch (error) {
      throw unwritten(error, sweep, results, flags.out);
    }
    process.stderr.write(
      `all ${sweep.total} runs ended: results in ${flags.out} (${cliCommand()} report ${flags.out})\n`,
    );
    if (otel !== undefined) {
      const exported = exportServedOtel(otel, flags.sweepSeed, sweep.endedRuns());
      process.stderr.write(`otel: ${otel} (${exported.runs} runs, ${exported.spans} spans)\n`);
    }
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    idle.stop();
    quiet.stop();
    await server.close();
    results.release();
    // A folder serve made and never wrote to (a failed start, a stop before any run ended) goes.
    if (madeFolder && !results.written) removeIfEmpty(flags.out);
  }
}

/** A repeatable flag's values, in order. */
function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

/** What serve says, loudly, when `--host` opens it to the network. */
function openNetworkWarning(flags: ServeFlags, port: string): string {
  const names = ['localhost', '127.0.0.1', '[::1]', flags.host, ...flags.allowHost].filter(
    (name) => !['0.0.0.0', '::', '[::]'].includes(name),
  );
  return [
    `WARNING: serve listens on ${flags.host}, not loopback: anything that can reach this machine on port ${port} can start and end runs and call the model and tools (serve has no authentication).`,
    `WARNING: requests must name serve as ${names.join(', ')} (add the name other machines use with --allow-host); use --host 127.0.0.1 unless the network is yours.`,
    '',
  ].join('\n');
}

/** Whether `--host` keeps serve to this machine. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Binds the port; a port or address the user cannot have is a UserInputError naming the flag. */
function listen(server: ServeServer, flags: ServeFlags): Promise<string> {
  return listenOrSay(() => server.listen(), flags);
}

/**
 * A write serve could not make once the agents were done with it (a silent run's record,
 * a stopped run's, the finished folder): the folder keeps the runs already stored, marked
 * unfinished, and the error says so. A full disk keeps its cause, for its own exit code.
 */
function unwritten(error: unknown, sweep: ServedSweep, results: ServedResults, out: string): unknown {
  const cause = error instanceof ServeRefusal && error.cause !== undefined ? error.cause : error;
  if (!(cause instanceof ResultsWriteError) && !isDiskFull(cause)) return error;
  results.interrupt();
  return new Error(
    `${cause instanceof Error ? cause.message : String(cause)}. Serve stopped: ${sweep.ended} of ${sweep.total} runs ended and are written to ${out}, which is marked unfinished (progress.json, no summary.json). Serve cannot continue a sweep: ${isDiskFull(cause) ? 'free space' : 'make it writable'}, then serve again with --overwrite.`,
    { cause },
  );
}

function removeIfEmpty(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
}
