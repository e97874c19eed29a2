import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ARM_PRESETS } from '../arms/arms.js';
import { ensembleCast } from '../sweep/ensemble-cast.js';
import { runOne } from '../arms/run-one.js';
import { loadScenarioSource, type ScenarioSource } from '../sweep/scenario-source.js';
import type { AgentEvent } from '../loop/events.js';
import { openFinishedSweep, readRuns, readTraces } from '../results/results-reader.js';
import { parseRunLine, type StoredRun } from '../results/run-record-schema.js';
import { SERVED_MODEL } from '../results/served-model.js';
import type { StoredMeta } from '../results/meta-schema.js';
import type { StoredArm, StoredSummary } from '../results/summary-schema.js';
import type { StoredTraceEvent } from '../results/trace-schema.js';
import type { Scenario } from '../scenarios/loader.js';
import { loadEnsemble } from '../scenarios/persona-ensemble.js';
import { UserInputError } from '../user-input-error.js';
import { asArguments, trajectoryOfMessages } from './trajectory-of-messages.js';
import type { ToolCall, Trajectory, Turn } from './trajectory.js';

/** Which runs of a folder to read. */
export interface RunFilter {
  readonly arm?: string;
  readonly scenario?: string;
}

/** A trajectory with the run it came from. */
export interface LabelledTrajectory {
  readonly trajectory: Trajectory;
  readonly scenario?: string;
  readonly arm?: string;
  /** The run record, when the source is a results folder: its outcome figures. */
  readonly run?: StoredRun;
}

/** What a folder's trajectories cover, when not every run. */
export interface Coverage {
  readonly read: number;
  readonly runs: number;
  readonly note?: string;
}

/** Models whose runs are re-run exactly from their seeds: the simulated model, however a sweep reached it. */
const REPLAYABLE_MODELS = /^simulated(?:-sdk|-openai-sdk)?(?:\+stream)?$/;

/**
 * The trajectories of a results folder written by `spiralbench run`. Runs of built-in arms
 * on the simulated model are run again from their seeds, as `spiralbench replay` runs them
 * (same sweep seed, scenario, arm, seed and ensemble member), so every run is read, one at
 * a time. Runs the harness cannot run again (a real model's, a served agent's, a peer
 * framework's) are read from traces.jsonl, which holds the selected runs only: the
 * coverage says how many.
 */
export async function readResultsTrajectories(
  path: string,
  onTrajectory: (labelled: LabelledTrajectory) => void,
  filter: RunFilter = {},
  onProgress?: (done: number, total: number) => void,
): Promise<Coverage> {
  const sweep = openFinishedSweep(path);
  const { summary } = sweep;
  const wanted = (scenario: string, arm: string) =>
    (filter.arm === undefined || filter.arm === arm) && (filter.scenario === undefined || filter.scenario === scenario);
  const total = summary.cells
    .filter((cell) => wanted(cell.scenario, cell.arm))
    .reduce((sum, cell) => sum + cell.runs, 0);
  if (total === 0)
    throw UserInputError.single(
      path,
      '',
      `runs${filter.arm === undefined ? '' : ` of arm ${filter.arm}`}${filter.scenario === undefined ? '' : ` of scenario ${filter.scenario}`}; the sweep has none (cells: ${summary.cells.map((cell) => `${cell.scenario} · ${cell.arm}`).join(', ')})`,
    );
  const replayable = REPLAYABLE_MODELS.test(summary.model) && summary.live === undefined;
  const builtIn = summary.arms.filter((arm) => filter.arm === undefined || filter.arm === arm.name).every(isBuiltIn);
  if (!replayable || !builtIn) return fromTraces(sweep, onTrajectory, wanted, total, summary);

  const scenarios = await scenariosOf(summary, sweep.meta, path);
  const arms = new Map(summary.arms.map((arm) => [arm.name, ARM_PRESETS.get(arm.name)]));
  // First every line is checked against summary.json; then the runs stream again, one
  // replayed at a time, so a sweep of a million runs is never held in memory.
  await readRuns(sweep);
  let done = 0;
  const lines = createInterface({ input: createReadStream(sweep.runsFile), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const run = parseRunLine(line, `${sweep.runsFile}:${lineNumber}`);
    if (!wanted(run.scenario, run.arm)) continue;
    const cast = scenarios.get(run.scenario)!;
    const scenario = run.member === undefined ? cast.own : cast.members?.[run.member];
    if (scenario === undefined)
      throw UserInputError.single(
        `${sweep.runsFile}:${lineNumber}`,
        'member',
        `a member of the sweep's ensemble (0 to ${(cast.members?.length ?? 0) - 1}); got ${run.member}`,
      );
    const { record, result } = await runOne({
      sweepSeed: run.sweep_seed,
      scenario,
      arm: arms.get(run.arm)!,
      seed: run.seed,
      member: run.member,
    });
    // A run is the same run only if it ends the same way: else the model or the harness
    // changed since the sweep, and its transcript would describe runs that never happened.
    if (record.tool_calls !== run.tool_calls || record.verdict !== run.verdict)
      throw UserInputError.single(
        `${sweep.runsFile}:${lineNumber}`,
        '',
        `a run this version plays the same way; run again it made ${record.tool_calls} tool calls (${record.verdict}) where the sweep recorded ${run.tool_calls} (${run.verdict}): the simulated model or the harness changed since. Run the sweep again with this version`,
      );
    onTrajectory({
      trajectory: trajectoryOfMessages(`${run.scenario}/${run.arm}/${run.seed}`, result.messages),
      scenario: run.scenario,
      arm: run.arm,
      run,
    });
    done += 1;
    onProgress?.(done, total);
  }
  return { read: done, runs: total };
}

function isBuiltIn(arm: StoredArm): boolean {
  const preset = ARM_PRESETS.get(arm.name);
  return preset !== undefined && arm.peer === undefined && JSON.stringify(arm.guards) === JSON.stringify(preset.guards);
}

/** Each scenario of the sweep as its runs were played: its own persona, and each ensemble member. */
async function scenariosOf(
  summary: StoredSummary,
  meta: StoredMeta | undefined,
  path: string,
): Promise<Map<string, { own: Scenario; members: readonly Scenario[] | undefined }>> {
  const ensemble = summary.ensemble === undefined ? undefined : loadEnsemble(summary.ensemble.name);
  if (ensemble !== undefined && summary.ensemble !== undefined && ensemble.hash !== summary.ensemble.hash)
    throw UserInputError.single(
      path,
      'ensemble',
      `the ensemble the sweep ran (${summary.ensemble.name}, sha256 ${summary.ensemble.hash.slice(0, 12)}); the file now has sha256 ${ensemble.hash.slice(0, 12)}, so its runs cannot be run again as they were`,
    );
  const scenarios = new Map<string, { own: Scenario; members: readonly Scenario[] | undefined }>();
  for (const stored of summary.scenarios) {
    const source = await scenarioNamed(stored.id, commandFiles(meta?.command));
    if (source === undefined)
      throw UserInputError.single(
        path,
        `scenarios (${stored.id})`,
        "a bundled scenario, or a scenario file named in meta.json's command (as a path from this folder), to run the sweep's runs again; none of them is scenario " +
          stored.id,
      );
    if (source.scenario.hash !== stored.hash)
      throw UserInputError.single(
        path,
        `scenarios (${stored.id})`,
        `the scenario the sweep ran (sha256 ${stored.hash.slice(0, 12)}); the bundled one is now ${source.scenario.hash.slice(0, 12)}, so its runs cannot be run again as they were`,
      );
    scenarios.set(stored.id, {
      own: source.scenario,
      members: ensembleCast(source.scenario, source.texts, ensemble?.members),
    });
  }
  return scenarios;
}

/** The .yaml paths a sweep's command line named (`-s a.yaml,b.yaml`). */
function commandFiles(command: string | undefined): string[] {
  if (command === undefined) return [];
  return command
    .split(/[\s,=]+/)
    .map((word) => word.replace(/^['"]|['"]$/g, ''))
    .filter((word) => /\.ya?ml$/.test(word) && existsSync(word));
}

/** The scenario with this id: bundled, or one of the files the sweep named. */
async function scenarioNamed(id: string, files: readonly string[]): Promise<ScenarioSource | undefined> {
  for (const ref of [id, ...files]) {
    try {
      const source = await loadScenarioSource(ref);
      if (source.scenario.id === id) return source;
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
    }
  }
  return undefined;
}

/** Trajectories from traces.jsonl: the runs the sweep traced, their tool calls and results from the timeline. */
async function fromTraces(
  sweep: ReturnType<typeof openFinishedSweep>,
  onTrajectory: (labelled: LabelledTrajectory) => void,
  wanted: (scenario: string, arm: string) => boolean,
  total: number,
  summary: StoredSummary,
): Promise<Coverage> {
  const traces = await readTraces(sweep);
  const why =
    summary.model === SERVED_MODEL
      ? 'its agent ran outside the harness'
      : REPLAYABLE_MODELS.test(summary.model)
        ? 'it has arms other than the built-in ones'
        : `its model (${summary.model}) is not the simulated one`;
  if (traces === undefined)
    throw UserInputError.single(
      sweep.dir,
      '',
      `runs spiralbench can run again, or a traces.jsonl holding their tool calls; this sweep cannot be run again (${why}) and has no traces.jsonl`,
    );
  let read = 0;
  let cut = 0;
  for (const trace of traces) {
    if (!wanted(trace.scenario, trace.arm)) continue;
    if (trace.events_omitted > 0) {
      cut += 1;
      continue;
    }
    onTrajectory({
      trajectory: trajectoryOfEvents(`${trace.scenario}/${trace.arm}/${trace.seed}`, trace.events),
      scenario: trace.scenario,
      arm: trace.arm,
    });
    read += 1;
  }
  return {
    read,
    runs: total,
    note: `${read} of ${total} runs read from traces.jsonl (${why}): the runs the sweep traced (the worst, the failures), not a fair sample${cut > 0 ? `; ${cut} traces with events cut from the middle left out` : ''}`,
  };
}

/** A trajectory from a run's timeline: each model call opens a turn, the tool calls after it are its calls. */
export function trajectoryOfEvents(id: string, events: readonly (AgentEvent | StoredTraceEvent)[]): Trajectory {
  const turns: Turn[] = [];
  let calls: ToolCall[] | undefined;
  const byId = new Map<string, ToolCall>();
  const close = () => {
    if (calls !== undefined) turns.push(calls.length > 0 ? { calls } : { text: '' });
    calls = undefined;
  };
  for (const event of events as readonly StoredTraceEvent[]) {
    if (event.type === 'agent.model.call') {
      close();
      calls = [];
    } else if (event.type === 'agent.tool.call') {
      const call: ToolCall = { name: String(event.tool), input: asArguments(event.input), result: null };
      byId.set(String(event.id), call);
      (calls ??= []).push(call);
    } else if (event.type === 'agent.tool.result') {
      const call = byId.get(String(event.id));
      if (call !== undefined)
        call.result =
          event.isError === true ? { text: String(event.content), is_error: true } : { text: String(event.content) };
    }
  }
  close();
  return { id, turns };
}
