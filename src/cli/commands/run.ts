import type { Command } from 'commander';
import { CheckFailed } from '../check-failed.js';
import { DEFAULT_REAL_CONCURRENCY } from '../model-choice.js';
import { DEFAULT_MAX_COST_USD } from '../cost-confirmation.js';
import { commaList, nonNegativeNumber, positiveInt, shardSpec } from '../parse.js';
import { UNANSWERED_RUNS_TO_STOP } from '../../sweep/sweep-health.js';
import { EXIT } from '../exit-codes.js';
import { sweepOptions } from '../sweep-options.js';
import { checkBaseline, concludeRun, exportOtel, printRun, runPlannedSweep, writeRunReport } from '../run-steps.js';
import { planRun, type RunFlags } from '../run-plan.js';

export function registerRun(program: Command): void {
  const run = program
    .command('run')
    .description(
      'Run scenario × arm × seed and print a table per scenario; write runs.jsonl, runs.csv and summary.json.',
    );
  sweepOptions
    .scenarios(run)
    .option(
      '-a, --arms <names>',
      'arms, groups (ablation) or peer frameworks (peer:vercel-ai, ...), comma-separated',
      commaList,
      ['none', 'article'],
    )
    .option('--arms-file <path>', 'YAML/JSON file of custom arms, usable by name in --arms');
  sweepOptions.agent(run, 'as the arm agent:<name>, beside --arms');
  sweepOptions
    .ensemble(
      run,
      "run every arm across a persona ensemble: 'default' (fitted to the published baseline) or a file from `spiralbench calibrate`",
    )
    .option(
      '--sensitivity',
      "with --ensemble: re-run the same cells with every member's prior-only parameters at the low, then the high edge of their ranges, and name the cells whose success label or sign changes, and the arms whose harmful-rate label or sign does (summary.json `sensitivity`)",
      false,
    );
  sweepOptions.seeds(run, 50);
  sweepOptions
    .workers(run)
    .option(
      '--shard <i/n>',
      'run only the i-th of n equal slices of the sweep (combine with `spiralbench merge`)',
      shardSpec,
    );
  sweepOptions
    .out(
      run,
      'results/latest',
      'results folder; a folder named here that holds a sweep needs --resume or --overwrite (the default one is replaced when its sweep finished)',
    )
    .option(
      '--via <path>',
      "how the simulated model is reached: 'in-process' (fast) or 'sdk' (through the real client of the scenario's API: @anthropic-ai/sdk, or openai for api: openai-chat)",
      'in-process',
    )
    .option(
      '--model <id>',
      'run against a real model instead of the simulated one: Claude (needs ANTHROPIC_API_KEY), or a model an OpenAI-compatible server serves (--provider)',
    )
    .option(
      '--provider <name>',
      "a real model's API: 'anthropic' (default) or 'openai-compatible' (Ollama, vLLM, llama.cpp; needs --base-url; key from OPENAI_API_KEY if set)",
    )
    .option(
      '--base-url <url>',
      "the real model's server, e.g. http://localhost:11434/v1; for anthropic, a proxy (default: ANTHROPIC_BASE_URL or the API)",
    )
    .option(
      '--concurrency <n>',
      `a real model's runs and requests in flight at once; rate-limit headers can hold them (default ${DEFAULT_REAL_CONCURRENCY})`,
      positiveInt,
    )
    .option(
      '--batch',
      "send our loop's model calls through Claude's Message Batches API at half the price: every run in flight asks for its next reply, the requests go as one batch, and the sweep polls until it has ended (minutes to hours; --concurrency runs in flight, default 100); a crashed sweep resumes from the batches it recorded, sending none twice (docs/cost.md)",
      false,
    )
    .option(
      '--batch-poll-ms <ms>',
      'the first wait between two reads of a batch status, doubled up to a minute',
      positiveInt,
    )
    .option(
      '--max-cost <usd>',
      'ask before a real sweep estimated above this many US dollars (or of unknown cost)',
      nonNegativeNumber,
      DEFAULT_MAX_COST_USD,
    )
    .option('-y, --yes', 'start a real sweep without asking, whatever its estimated cost', false)
    .option(
      '--stream',
      'stream every model call (server-sent events through the SDK with --via sdk): text as it arrives, read-only tool calls started as their blocks end; results name the model <model>+stream (docs/streaming.md)',
      false,
    )
    .option(
      '--no-prompt-cache',
      "send our loop's requests without prompt-cache breakpoints: every call pays for its whole prompt at the input price (docs/cost.md)",
    )
    .option(
      '--record-missing',
      'with --replay: a call the cassette lacks (the agent changed, or the run was never recorded) goes to the live model named by the model flags, and the run is recorded again into the cassette (docs/cassettes.md)',
      false,
    )
    .option(
      '--record <dir>',
      "record every model call of the sweep into a cassette folder (one file a run; the model's replies, errors and their headers, never a key), to replay it later with no key and no network (docs/cassettes.md)",
    )
    .option(
      '--replay <dir>',
      'answer every model call from a cassette folder --record wrote: no model, key or network; a run whose requests differ from the recorded ones fails, naming the call and the part that differs (docs/cassettes.md)',
    )
    .option('--json', 'print summary.json to stdout instead of tables', false)
    .option(
      '--report [html]',
      'then write the HTML report (default reports/<results folder name>.html); an earlier report there is replaced, any other file refused',
    );
  sweepOptions
    .resume(
      run,
      'sweep',
      'delete the sweep --out holds, finished or interrupted, and start over, and replace any file at the --report path (without --resume or --overwrite, a sweep into such a folder is refused; --discard is an alias)',
    )
    .option(
      '--live',
      'live mode: tools served over HTTP on 127.0.0.1 with socket-level faults, the simulated model over HTTP, real time (see docs/live.md)',
      false,
    )
    .option(
      '--live-timeout-ms <ms>',
      "live: the tool client's timeout in real ms; all of the scenario's waits are scaled by it / the scenario's timeout_ms",
      positiveInt,
      200,
    )
    .option(
      '--model-url <url>',
      'live: a running `spiralbench serve-model --faults` to use instead of one started in-process',
    )
    .option(
      '--otel <file>',
      'then write every run as OpenTelemetry spans (GenAI conventions) to this OTLP/JSON file; the runs are replayed in this thread (docs/otel.md)',
    )
    .option(
      '--check <baseline>',
      'then compare with a baseline sweep (its folder or summary.json) and exit 1 on a significant regression (see `spiralbench compare --help`)',
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  spiralbench run --scenarios fetch-transform-write --arms none,article --seeds 50',
        '  spiralbench run --scenarios fetch-transform-write --arms ablation --seeds 1000 --workers 2',
        '  spiralbench run -s fetch-transform-write -a none,peer:anthropic-tool-runner --agent ./my-agent.ts -n 200   # your own loop (docs/agents.md)',
        '  spiralbench run -s fetch-transform-write -n 50000 --shard 2/3 --out results/shard-2   # then: spiralbench merge',
        '  spiralbench run -s fetch-transform-write -a article -n 500 --check baselines/article   # a CI gate in one step',
        '  spiralbench run -s fetch-transform-write -a none,article -n 5 --model claude-sonnet-4-5   # real Claude: estimates the cost first',
        '  spiralbench run -s fetch-transform-write -n 5 --model llama3.1 --provider openai-compatible --base-url http://localhost:11434/v1',
        '  spiralbench run -s fetch-transform-write -a none,article -n 200 --model claude-sonnet-4-5 --record cassettes/ftw   # then, in CI:',
        '  spiralbench run -s fetch-transform-write -a none,article -n 200 --replay cassettes/ftw   # no key, no network',
        '',
        'Results are written as the sweep goes. Ctrl-C stops it cleanly (the runs in flight finish and',
        'are written); a second Ctrl-C, or a crash, loses at most the runs in flight and those not synced',
        'to disk yet (the last fraction of a second). Either way the same',
        'command with --resume continues it, and the finished folder is the same bytes as an',
        "uninterrupted sweep's. One sweep writes a folder at a time (it holds spiralbench.lock).",
        '',
        'Every run replays byte-for-byte: spiralbench replay --scenario <id> --arm <arm> --seed <n>',
        '',
        'With --ensemble, run seed s is played by member (s - first seed) mod M of the ensemble, the same',
        'member in every arm, so arms still pair by seed; each record says which (`member`) and summary.json',
        'names the ensemble. Only scenarios that use the default persona are played by the members: one',
        'that names its own persona (stubborn, diligent) keeps it, and its records carry no member.',
        'See docs/calibration.md.',
        '',
        "With --ensemble and --sensitivity, the sweep's cells (same scenarios, arms and seeds) are run twice",
        "more with every member's prior-only parameters (those the baseline cannot fit: help.probability,",
        'loop_warning.nudge, ...) at the low, then the high edge of their documented ranges. A cell whose',
        'success label or sign changes at either edge "depends on untested assumptions", and so does an',
        "arm whose harmful-rate label or sign against the baseline (the answer table's) changes; the output",
        'ends with those cells and arms and summary.json gets a `sensitivity` object. The edge runs are not kept.',
        'See docs/statistics.md.',
        '',
        `Exit code ${EXIT.modelUnavailable}: a real model (--model) never answered. When the first ${UNANSWERED_RUNS_TO_STOP} runs all fail before a`,
        'single reply (nothing listening, key or model id refused, every call an error), the sweep stops:',
        'the runs written so far are kept, and stderr names the error and the --resume command.',
        '',
        `Exit code ${EXIT.diskFull}: the disk (or quota) filled. Every chunk of runs synced before is kept; stderr names`,
        'the file that could not be written and the --resume command to go on once there is room.',
      ].join('\n'),
    )
    .action(async (flags: RunFlags, command: Command) => {
      const plan = await planRun(flags);
      const ran = await runPlannedSweep(plan, flags, command);
      const concluded = await concludeRun(plan, ran, flags);
      await exportOtel(plan, flags);
      await writeRunReport(plan);
      if (flags.json) process.stdout.write(`${JSON.stringify(concluded.summary, null, 2)}\n`);
      else printRun(plan, ran, concluded, flags);
      await checkBaseline(plan, flags);
      // A replay that could not answer every run did not reproduce the sweep: a failed check, not a result.
      if (ran.replayMissed !== undefined) throw new CheckFailed(ran.replayMissed);
    });
}
