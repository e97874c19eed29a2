// The steps of `spiralbench run`, in the order its action takes them (commands/run.ts).
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { type Arm, resolveArms } from '../arms/arms.js';
import { replayCommand } from '../sweep/replay-command.js';
import { loadArmsFile } from '../arms/arms-file.js';
import { agentArms, checkAgentArms } from '../arms/agent-arm.js';
import { shownAgentSpec } from '../arms/recorded-arms.js';
import { usesDefaultPersona } from '../sweep/ensemble-cast.js';
import type { Scenario, ScenarioTexts } from '../scenarios/loader.js';
import { loadEnsemble, type PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import { checkAgentSweep } from '../arms/agent-checks.js';
import type { Shard } from '../sweep/sweep-plan.js';
import { REPORT_FILE } from '../report/html/report-marker.js';
import {
  renderCellTables,
  renderDatasetTasks,
  renderPassHatK,
  renderScenarioMatrix,
} from '../report/terminal-table.js';
import { renderAnswer } from '../report/answer-table.js';
import { concludeSweep } from './sweep-conclusions.js';
import { checkSensitivity, sweepPriorEdges } from './prior-sensitivity-sweeps.js';
import { storedSensitivity } from '../report/prior-sensitivity.js';
import { renderPriorSensitivity } from '../report/prior-sensitivity-text.js';
import { extendSummary } from '../results/results-writer.js';
import { UserInputError } from '../user-input-error.js';
import { wallClock } from '../clock/wall-clock.js';
import { CheckFailed } from './check-failed.js';
import { selectModel } from './model-choice.js';
import { configChangeNotes, configChangeProblems } from './config-change-check.js';
import { cassetteUse, replaySource, startRecording, watchReplay } from './cassette-flags.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { prepareRealSweep, watchRealSweep } from './real-sweep.js';
import { liveModel as liveSource, type ModelSource, withSpendLimit } from '../run/model-source.js';
import { watchSpend } from './spend-watch.js';
import { modelSpec } from '../model/model-table.js';
import { formatDollars } from '../report/prices.js';
import { eitherStop } from './sweep-until-interrupted.js';
import type { RunRecord } from '../results/run-record-schema.js';
import type { LiveSession } from '../run/live-session.js';
import { sweepProgress } from './progress.js';
import { colourStdout } from './terminal-capabilities.js';
import { replaceableFile } from './output-file.js';
import { otelFile } from './otel-file.js';
import { asTyped } from './invocation.js';
import { distinctScenarios, type SweepFlags, sweepTimeLine, type TimedSweep, timedSweep } from './sweep-options.js';

export interface RunFlags extends SweepFlags {
  readonly arms: string[];
  readonly armsFile?: string;
  readonly shard?: Shard;
  readonly via: string;
  readonly model?: string;
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly concurrency?: number;
  readonly batch: boolean;
  readonly batchPollMs?: number;
  readonly recordMissing: boolean;
  readonly maxCost: number;
  readonly yes: boolean;
  readonly json: boolean;
  readonly check?: string;
  readonly report?: string | true;
  readonly stream: boolean;
  readonly promptCache: boolean;
  readonly live: boolean;
  readonly liveTimeoutMs: number;
  readonly modelUrl?: string;
  readonly sensitivity: boolean;
  readonly otel?: string;
  readonly record?: string;
  readonly replay?: string;
}

/** What a `run` will do, every input checked before the first run: a sweep may run for hours. */
export interface RunPlan {
  readonly scenarios: Awaited<ReturnType<typeof distinctScenarios>>;
  readonly arms: Arm[];
  /** The arms read from --arms-file, by name. */
  readonly fromFile: ReadonlyMap<string, Arm>;
  readonly ensemble: PersonaEnsemble | undefined;
  readonly model: ModelSource;
  /** A real model's target (its cost estimated, its rate limits read); undefined for the simulated one. */
  readonly real: Awaited<ReturnType<typeof selectModel>>['real'];
  /** Live mode's module, loaded only with --live. */
  readonly live: typeof import('../run/live-session.js') | undefined;
  readonly otel: { readonly path: string; readonly module: typeof import('../otel/otel-export.js') } | undefined;
  readonly reportPath: string | undefined;
  readonly baseline: string | undefined;
  readonly outDir: string;
  /** The cassette folder the sweep records into or replays from; undefined without one. */
  readonly cassette: CassetteUse | undefined;
}

/** Reads and checks every input: flags, scenarios, arms, agents, the model (a real one's cost confirmed). */
export async function planRun(flags: RunFlags): Promise<RunPlan> {
  const baseline = flags.check === undefined ? undefined : baselineDir(flags.check);
  if (baseline !== undefined && baseline === resolve(flags.out)) {
    throw UserInputError.single(
      '--out',
      '',
      `a folder other than the --check baseline (${baseline}), which the run would overwrite`,
    );
  }
  // Checked before the sweep, which may run for hours: its report must have somewhere to go.
  const reportPath =
    flags.report === undefined
      ? undefined
      : replaceableFile(
          typeof flags.report === 'string' ? flags.report : join('reports', `${basename(resolve(flags.out))}.html`),
          { another: '--report', overwrite: flags.overwrite, ours: REPORT_FILE },
        );
  const scenarios = await distinctScenarios(flags.scenarios);
  const fromFile = flags.armsFile === undefined ? new Map<string, Arm>() : await loadArmsFile(flags.armsFile);
  const agents = await agentArms(flags.agent, process.cwd());
  const custom = new Map<string, Arm>([...fromFile, ...agents]);
  const arms = resolveArms([...flags.arms, ...agents.keys()], '--arms', custom);
  const definitions = await checkAgentArms(arms, (arm) =>
    agents.has(arm.name) ? { source: '--agent' } : { source: flags.armsFile!, field: `arms (${arm.name}).agent` },
  );
  const ensemble = flags.ensemble === undefined ? undefined : loadEnsemble(flags.ensemble);
  const cassette = cassetteUse(flags);
  if (flags.sensitivity)
    checkSensitivity({
      ...(flags.ensemble === undefined ? {} : { ensemble: flags.ensemble }),
      shard: flags.shard,
      arms: arms.length,
      simulated: !flags.live && flags.model === undefined,
    });
  const otelPath = flags.otel === undefined ? undefined : otelFile(flags.otel);
  // Live runs, OpenTelemetry, the HTML report and --check load their modules only when asked for.
  const live = flags.live ? await import('../run/live-session.js') : undefined;
  const otel = otelPath === undefined ? undefined : { path: otelPath, module: await import('../otel/otel-export.js') };
  const { source: model, real } =
    live !== undefined
      ? { source: liveModel(flags, live.LiveSession), real: undefined }
      : cassette?.mode === 'replay' && cassette.recordMissing !== true
        ? { source: replaySource(cassette), real: undefined }
        : await selectModel(
            flags,
            process.env,
            {
              onHold: (hold) =>
                process.stderr.write(
                  `rate limit: holding new requests ${hold.waitMs < 1000 ? `${Math.round(hold.waitMs)} ms` : `${(hold.waitMs / 1000).toFixed(1)} s`} (${hold.header})\n`,
                ),
            },
            flags.batch ? { dir: resolve(flags.out), resume: flags.resume } : undefined,
          );
  // With --json the label goes to stderr, so stdout stays one JSON document (which carries `live` itself).
  if (live !== undefined)
    (flags.json ? process.stderr : process.stdout).write(
      `${live.LIVE_NOTE} · tool timeout ${flags.liveTimeoutMs} ms\n`,
    );
  otel?.module.checkOtelExport(model);
  const changeProblems = configChangeProblems(scenarios, model.modelId);
  if (changeProblems.length > 0) throw new UserInputError(changeProblems);
  for (const note of configChangeNotes(
    arms,
    scenarios.map(({ scenario }) => scenario),
  ))
    process.stderr.write(`${note}\n`);
  if (ensemble !== undefined)
    for (const note of datasetEnsembleNotes(scenarios, ensemble.members.length)) process.stderr.write(`${note}\n`);
  if (flags.batch) checkBatchSweep(flags, arms, cassette !== undefined);
  checkAgentSweep(
    arms,
    scenarios.map(({ scenario }) => scenario),
    model,
    { stream: flags.stream, agents: definitions },
  );
  if (real !== undefined) {
    await prepareRealSweep({
      target: real,
      scenarios: scenarios.map(({ scenario }) => scenario),
      arms,
      seeds: flags.seeds,
      baseSeed: flags.firstSeed,
      sweepSeed: flags.sweepSeed,
      ...(flags.shard === undefined ? {} : { shard: flags.shard }),
      maxCostUsd: flags.maxCost,
      yes: flags.yes,
      promptCache: flags.promptCache,
      batch: flags.batch,
    });
  }
  // Once a real sweep's cost is agreed to: a sweep that does not start writes nothing.
  if (cassette?.mode === 'record' || cassette?.recordMissing === true) startRecording(cassette, model);
  return {
    scenarios,
    arms,
    fromFile,
    ensemble,
    model,
    real,
    live,
    otel,
    reportPath,
    baseline,
    outDir: resolve(flags.out),
    cassette,
  };
}

/** The sweep's cells as the plan has them, for the sweep and for what re-runs them (the prior edges, OpenTelemetry). */
function cellsOf(plan: RunPlan, flags: RunFlags) {
  return {
    scenarios: plan.scenarios,
    arms: plan.arms,
    seeds: flags.seeds,
    baseSeed: flags.firstSeed,
    sweepSeed: flags.sweepSeed,
    model: plan.model,
    ...(flags.stream ? { stream: true } : {}),
    ...(flags.promptCache ? {} : { promptCache: false }),
    ...(flags.batch ? { batch: true } : {}),
    ...(plan.ensemble === undefined ? {} : { ensemble: plan.ensemble }),
  };
}

/** The arms file the sweep records, when there is one. */
function armsFileOf(plan: RunPlan, flags: RunFlags) {
  return flags.armsFile === undefined
    ? {}
    : { armsFile: { path: flags.armsFile, arms: new Set(plan.fromFile.keys()) } };
}

/** Runs the sweep to its end (or a clean stop), writes meta.json and says on stderr how long it took. */
export async function runPlannedSweep(
  plan: RunPlan,
  flags: RunFlags,
  command: Command,
): Promise<TimedSweep & { readonly replayMissed?: string }> {
  const { real, outDir } = plan;
  const total = plan.scenarios.length * plan.arms.length * flags.seeds;
  // A real model that never answers stops the sweep early (exit 4); a simulated one's faults are the experiment.
  const watch = real === undefined ? undefined : watchRealSweep(outDir);
  // A --max-cost the user gave holds a real sweep while it runs (exit 5); the default only asks before it starts.
  const spend =
    real === undefined || command.getOptionValueSource('maxCost') !== 'cli'
      ? undefined
      : watchSpend(
          flags.maxCost,
          outDir,
          new Set(plan.arms.filter((arm) => arm.agent !== undefined || arm.peer !== undefined).map((arm) => arm.name)),
        );
  if (spend !== undefined && modelSpec(real!.modelId) === undefined)
    throw UserInputError.single(
      '--max-cost',
      String(flags.maxCost),
      `a model the price table knows, to count what the sweep spends: it has no price for '${real!.modelId}' (leave --max-cost out to run it unmetered)`,
    );
  const model = spend === undefined ? plan.model : withSpendLimit(plan.model, spend.limit);
  const stop = eitherStop(watch?.stop, spend?.stop);
  const replay = plan.cassette?.mode === 'replay' ? watchReplay() : undefined;
  const onRecords = [watch?.onRecord, spend?.onRecord, replay?.onRecord].filter((hear) => hear !== undefined);
  const ran = await timedSweep(
    {
      ...cellsOf(plan, flags),
      model,
      ...armsFileOf(plan, flags),
      ...(plan.cassette === undefined ? {} : { cassette: plan.cassette }),
      workers: flags.workers,
      ...(flags.shard === undefined ? {} : { shard: flags.shard }),
      outDir,
      resume: flags.resume,
      discard: flags.overwrite,
      // results/latest is the scratch folder: a finished sweep there is replaced; a folder named with -o is kept.
      defaultFolder: command.getOptionValueSource('out') === 'default',
      ...optionalProgress(
        sweepProgress(
          flags.shard === undefined ? total : Math.ceil(total / flags.shard.count),
          undefined,
          undefined,
          spend === undefined ? undefined : () => spend.limit.spentUsd,
        ),
      ),
      ...(onRecords.length === 0 ? {} : { onRecord: (record: RunRecord) => onRecords.forEach((hear) => hear(record)) }),
      ...(stop === undefined ? {} : { stop }),
    },
    ({ workers, summary }) => ({
      workers: model.kind === 'live' ? 1 : workers,
      stream: flags.stream,
      ...(summary.live === undefined ? {} : { live: summary.live }),
    }),
    // Before the sweep's time is taken: closing live mode's servers is part of the sweep.
    () => model.close(),
  );
  const runs = ran.summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  const how =
    model.kind === 'live'
      ? '1 thread, live'
      : real === undefined
        ? `${ran.workers} worker(s)`
        : `${real.concurrency} at once, wall-clock time`;
  process.stderr.write(sweepTimeLine(runs, ran.seconds, how));
  if (spend !== undefined)
    process.stderr.write(
      `spent ${formatDollars(spend.limit.spentUsd)} of --max-cost ${formatDollars(spend.limit.limitUsd)}\n`,
    );
  watch?.finished();
  const missed = replay?.verdict();
  return missed === undefined ? ran : { ...ran, replayMissed: missed };
}

/** The sweep's labels and recommendation, and with --sensitivity the cells its untested priors could flip. */
export async function concludeRun(plan: RunPlan, ran: TimedSweep, flags: RunFlags) {
  // The labels and the recommendation go into summary.json, for programs to read what the output says.
  const concluded = await concludeSweep(plan.outDir, ran.summary);
  const { conclusions } = concluded;
  if (!flags.sensitivity || plan.ensemble === undefined || conclusions === undefined)
    return { ...concluded, sensitivity: undefined };
  const sensitivity = await sweepPriorEdges(
    { ...cellsOf(plan, flags), ...armsFileOf(plan, flags), ensemble: plan.ensemble, workers: flags.workers },
    conclusions,
  );
  const summary = extendSummary(plan.outDir, concluded.summary, { sensitivity: storedSensitivity(sensitivity) });
  return { conclusions, summary, sensitivity };
}

type Concluded = Awaited<ReturnType<typeof concludeRun>>;

/** With --otel: every run again in this thread, as OpenTelemetry spans. */
export async function exportOtel(plan: RunPlan, flags: RunFlags): Promise<void> {
  if (plan.otel === undefined) return;
  const started = wallClock.ms();
  const exported = await plan.otel.module.exportOtel({
    path: plan.otel.path,
    ...cellsOf(plan, flags),
    ...(flags.shard === undefined ? {} : { shard: flags.shard }),
  });
  process.stderr.write(
    `otel: ${plan.otel.path} (${exported.runs} runs, ${exported.spans} spans, ${((wallClock.ms() - started) / 1000).toFixed(1)} s)\n`,
  );
}

/** With --report: the HTML report of the folder. */
export async function writeRunReport(plan: RunPlan): Promise<void> {
  if (plan.reportPath === undefined) return;
  const { writeReport } = await import('../report/html/write-report.js');
  const written = await writeReport(plan.outDir, { html: plan.reportPath });
  process.stderr.write(`report: ${written.htmlPath ?? '(not written)'}\n`);
}

/** The tables, the answer and where everything is, on stdout. */
export function printRun(
  plan: RunPlan,
  ran: TimedSweep,
  { summary, conclusions, sensitivity }: Concluded,
  flags: RunFlags,
): void {
  const { model, live, outDir } = plan;
  const shardNote = summary.shard === null ? '' : ` · shard ${summary.shard.index}/${summary.shard.count}`;
  const impossible = new Set(
    summary.scenarios.filter((scenario) => scenario.impossible).map((scenario) => scenario.id),
  );
  const tables = {
    color: colourStdout(),
    impossible,
    ...(conclusions === undefined ? {} : { effects: conclusions.effects, baseline: conclusions.baseline }),
  };
  process.stdout.write(`${renderCellTables(summary.cells, tables)}\n\n`);
  if (new Set(summary.cells.map((cell) => cell.scenario)).size > 1) {
    process.stdout.write(`${renderScenarioMatrix(summary.cells, tables)}\n\n`);
  }
  process.stdout.write(`${renderPassHatK(summary.pass_hat_k)}\n`);
  const tasks = renderDatasetTasks(summary.cells);
  if (tasks !== '') process.stdout.write(`${tasks}\n`);
  if (conclusions !== undefined)
    process.stdout.write(`\n${renderAnswer(conclusions.answer, { color: colourStdout() })}\n`);
  if (sensitivity !== undefined) process.stdout.write(`\n${renderPriorSensitivity(sensitivity)}\n`);
  if (summary.live !== undefined && live !== undefined)
    process.stdout.write(`\n${live.LIVE_NOTE} · wall ${ran.seconds.toFixed(1)} s\n`);
  process.stdout.write(
    `\nmodel: ${summary.model} · sweep seed ${summary.sweep_seed} · run seeds ${flags.firstSeed}..${flags.firstSeed + flags.seeds - 1}${shardNote}\n`,
  );
  if (summary.ensemble !== undefined)
    process.stdout.write(
      `ensemble: ${summary.ensemble.name} · ${summary.ensemble.members} members (run seed s: member (s - ${flags.firstSeed}) mod ${summary.ensemble.members}) · sha256 ${summary.ensemble.hash.slice(0, 12)}\n`,
    );
  process.stdout.write(`results: ${outDir}/{runs.jsonl,runs.csv,summary.json}\n`);
  if (plan.real === undefined && model.kind !== 'live')
    process.stdout.write(
      `replay a run: ${asTyped(firstRunReplay(flags, plan.arms, plan.fromFile, model, usesDefaultPersona(plan.scenarios[0]!.texts)))}\n`,
    );
}

/** With --check: compares with the baseline, and fails on a regression or a baseline cell not run. */
export async function checkBaseline(plan: RunPlan, flags: RunFlags): Promise<void> {
  const { baseline } = plan;
  if (baseline === undefined) return;
  // With --json the comparison goes to stderr, so stdout stays one JSON document.
  const { compareSweepDirs } = await import('../report/compare-sweeps.js');
  const check = await compareSweepDirs(baseline, plan.outDir, { color: !flags.json && colourStdout() });
  (flags.json ? process.stderr : process.stdout).write(`\n${check.text}\n`);
  if (check.comparison.onlyInA.length > 0) {
    throw new CheckFailed(
      `check: ${check.comparison.onlyInA.length} cell(s) of the baseline were not run (${check.comparison.onlyInA.map((cell) => `${cell.scenario} · ${cell.arm}`).join(', ')})`,
    );
  }
  if (check.regressions.length > 0)
    throw new CheckFailed(`check: ${check.regressions.length} cell(s) regressed against ${baseline}`);
}

/** Live mode's model choice: the simulated model over HTTP; a real model, --via, --stream, shards and resume do not combine with it. */
function liveModel(flags: RunFlags, Session: typeof LiveSession): ModelSource {
  if (flags.model !== undefined || flags.provider !== undefined || flags.baseUrl !== undefined) {
    throw UserInputError.single(
      '--live',
      '',
      'the simulated model (leave out --model, --provider and --base-url; a real model is already live)',
    );
  }
  if (flags.via !== 'in-process')
    throw UserInputError.single('--via', '', 'left out with --live (a live run reaches the model over HTTP)');
  if (flags.stream) throw UserInputError.single('--stream', '', 'left out with --live (live runs do not stream yet)');
  if (flags.shard !== undefined || flags.resume)
    throw UserInputError.single(
      '--live',
      '',
      'a whole sweep: --shard and --resume are for reproducible (virtual) sweeps',
    );
  return liveSource(
    new Session({
      timeoutMs: flags.liveTimeoutMs,
      sweepSeed: flags.sweepSeed,
      ...(flags.modelUrl === undefined ? {} : { modelUrl: flags.modelUrl }),
    }),
  );
}

/** The replay command of the sweep's first run, as an example the user can paste. */
function firstRunReplay(
  flags: RunFlags,
  arms: readonly Arm[],
  custom: ReadonlyMap<string, Arm>,
  model: ModelSource,
  defaultPersona: boolean,
): string {
  const first = arms[0]!;
  const arm = first.name;
  const fromFile = flags.armsFile !== undefined && custom.has(arm);
  return replayCommand({
    // The sweep's first run is played by the ensemble's first member.
    ...(defaultPersona && flags.ensemble !== undefined ? { ensemble: flags.ensemble, member: 0 } : {}),
    scenario: flags.scenarios[0]!,
    arm,
    seed: flags.firstSeed,
    sweepSeed: flags.sweepSeed,
    ...(fromFile ? { armsFile: flags.armsFile! } : {}),
    ...(!fromFile && first.agent?.kind === 'module' ? { agent: shownAgentSpec(first.agent) } : {}),
    viaSdk: model.viaSdk,
    stream: flags.stream,
    promptCache: flags.promptCache,
  });
}

/** `--check` takes a sweep folder or the summary.json inside one. */
function baselineDir(path: string): string {
  const absolute = resolve(path);
  const dir = absolute.endsWith('.json') ? dirname(absolute) : absolute;
  if (!existsSync(join(dir, 'runs.jsonl')))
    throw UserInputError.single(
      '--check',
      '',
      `a sweep folder (or its summary.json) with runs.jsonl beside it; none in ${dir}`,
    );
  return dir;
}

function optionalProgress(onProgress: ((done: number, total: number) => void) | undefined) {
  return onProgress === undefined ? {} : { onProgress };
}

/**
 * What a batched sweep cannot do: a batch answers whole replies, hours later, to our
 * loop's requests only (an agent or a framework calls the model with its own client).
 */
function checkBatchSweep(flags: RunFlags, arms: readonly Arm[], cassette: boolean): void {
  const refusals: Array<[string, boolean, string]> = [
    ['--stream', flags.stream, 'left out with --batch (a batch answers whole replies)'],
    ['--live', flags.live, 'left out with --batch (live runs are the simulated model in real time)'],
    ['--record/--replay', cassette, 'left out with --batch (cassettes record calls one by one)'],
  ];
  for (const [flag, given, expected] of refusals) if (given) throw UserInputError.single(flag, '', expected);
  const other = arms.find((arm) => arm.agent !== undefined || arm.peer !== undefined);
  if (other !== undefined)
    throw UserInputError.single(
      '--arms',
      other.name,
      "our loop's arms only with --batch: an agent or a peer framework calls the model with its own client",
    );
}

/**
 * A dataset scenario whose rows and the ensemble's members share a factor: both cycle with
 * the seed (task (s - 1) mod rows, member (s - base) mod members), so each task meets only
 * some of the members, and per-task figures mix the task with the personas that played it.
 */
function datasetEnsembleNotes(
  scenarios: ReadonlyArray<{ readonly scenario: Scenario; readonly texts: ScenarioTexts }>,
  members: number,
): string[] {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return scenarios.flatMap(({ scenario, texts }) => {
    if (scenario.dataset === null || !usesDefaultPersona(texts)) return [];
    const rows = scenario.dataset.tasks.length;
    const shared = gcd(rows, members);
    if (shared === 1) return [];
    return [
      `note: ${scenario.id}: its ${rows} tasks and the ensemble's ${members} members both cycle with the seed, so each task meets ${members / shared} of the ${members} members; per-task figures mix the task with those personas (a dataset of a row count sharing no factor with ${members} meets every member; docs/datasets.md)`,
    ];
  });
}
