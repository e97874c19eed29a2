// The first step of `spiralbench run` (commands/run.ts): every input read and checked before the first run.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type Arm, resolveArms } from '../arms/arms.js';
import { loadArmsFile } from '../arms/arms-file.js';
import { agentArms, checkAgentArms } from '../arms/agent-arm.js';
import { usesDefaultPersona } from '../sweep/ensemble-cast.js';
import type { Scenario, ScenarioTexts } from '../scenarios/loader.js';
import { loadEnsemble, type PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import { checkAgentSweep } from '../arms/agent-checks.js';
import type { Shard } from '../sweep/sweep-plan.js';
import { REPORT_FILE } from '../report/html/report-marker.js';
import { checkSensitivity } from './prior-sensitivity-sweeps.js';
import { UserInputError } from '../user-input-error.js';
import { selectModel } from './model-choice.js';
import { configChangeNotes, configChangeProblems } from './config-change-check.js';
import { cassetteUse, replaySource, startRecording } from './cassette-flags.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { prepareRealSweep } from './real-sweep.js';
import { liveModel as liveSource, type ModelSource } from '../run/model-source.js';
import type { LiveSession } from '../run/live-session.js';
import { replaceableFile } from './output-file.js';
import { otelFile } from './otel-file.js';
import { distinctScenarios, type SweepFlags } from './sweep-options.js';

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
  if (baseline !== undefined && flags.shard !== undefined)
    throw UserInputError.single(
      '--check',
      '',
      'a whole sweep to gate, without --shard: a shard holds part of each cell (run the shards, merge them, then `spiralbench compare <baseline> <merged> --fail-on-regression`)',
    );
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
