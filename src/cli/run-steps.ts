// The steps of `spiralbench run` after its plan (run-plan.ts), in the order its action takes them (commands/run.ts).
import type { Command } from 'commander';
import type { Arm } from '../arms/arms.js';
import { replayCommand } from '../sweep/replay-command.js';
import { shownAgentSpec } from '../arms/recorded-arms.js';
import { usesDefaultPersona } from '../sweep/ensemble-cast.js';
import {
  renderCellTables,
  renderDatasetTasks,
  renderPassHatK,
  renderScenarioMatrix,
} from '../report/terminal-table.js';
import { renderAnswer } from '../report/answer-table.js';
import { concludeSweep } from './sweep-conclusions.js';
import { sweepPriorEdges } from './prior-sensitivity-sweeps.js';
import { storedSensitivity } from '../report/prior-sensitivity.js';
import { renderPriorSensitivity } from '../report/prior-sensitivity-text.js';
import { extendSummary } from '../results/results-writer.js';
import { UserInputError } from '../user-input-error.js';
import { wallClock } from '../clock/wall-clock.js';
import { CheckFailed } from './check-failed.js';
import { watchReplay } from './cassette-flags.js';
import { watchRealSweep } from './real-sweep.js';
import { type ModelSource, withSpendLimit } from '../run/model-source.js';
import { watchSpend } from './spend-watch.js';
import { modelSpec } from '../model/model-table.js';
import { formatDollars } from '../report/prices.js';
import { eitherStop } from './sweep-until-interrupted.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { sweepProgress } from './progress.js';
import { colourStdout } from './terminal-capabilities.js';
import { asTyped } from './invocation.js';
import { sweepTimeLine, type TimedSweep, timedSweep } from './sweep-options.js';
import type { RunFlags, RunPlan } from './run-plan.js';

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
    {
      ...cellsOf(plan, flags),
      ...armsFileOf(plan, flags),
      ensemble: plan.ensemble,
      workers: flags.workers,
      outDir: plan.outDir,
    },
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

function optionalProgress(onProgress: ((done: number, total: number) => void) | undefined) {
  return onProgress === undefined ? {} : { onProgress };
}
