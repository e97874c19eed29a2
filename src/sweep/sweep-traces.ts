import type { Arm } from '../arms/arms.js';
import { shownAgentSpec } from '../arms/recorded-arms.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import type { ModelSource } from '../run/model-source.js';
import type { Scenario } from '../scenarios/loader.js';
import type { CellAccumulator } from './cell-accumulator.js';
import { memberFor } from './ensemble-cast.js';
import { captureTrace, type Trace } from './traces.js';

/** What a sweep's traces are captured from: its cells as run, and how to run one of their seeds again. */
export interface TracedSweep {
  /** Each scenario, and how the command line named it (for the traces' replay commands). */
  readonly scenarios: ReadonlyArray<{ readonly scenario: Scenario; readonly ref?: string }>;
  /** Each scenario as every ensemble member plays it; undefined where one persona plays it. */
  readonly casts: ReadonlyArray<readonly Scenario[] | undefined>;
  readonly arms: readonly Arm[];
  /** The arms as the sweep records them (user modules by path and hash). */
  readonly recorded: readonly Arm[];
  /** The cells by `scenarioIndex/armIndex`, each naming the seeds worth a trace. */
  readonly cells: ReadonlyMap<string, CellAccumulator>;
  readonly armsFile?: { readonly path: string; readonly arms: ReadonlySet<string> } | undefined;
  readonly baseSeed: number;
  readonly sweepSeed: number;
  readonly model: ModelSource;
  readonly stream: boolean;
  readonly promptCache: boolean;
  readonly cassette?: CassetteUse | undefined;
  /** The ensemble's name, when the sweep ran one. */
  readonly ensemble?: string | undefined;
}

/**
 * Timelines for the report's drill-down: a simulated run replays exactly, so each cell's
 * selected runs are run again with their events recorded, in cell order.
 */
export async function sweepTraces(sweep: TracedSweep): Promise<Trace[]> {
  const { model } = sweep;
  const traces: Trace[] = [];
  for (const [key, cell] of sweep.cells) {
    const [scenarioIndex, armIndex] = key.split('/').map(Number) as [number, number];
    const { scenario, ref } = sweep.scenarios[scenarioIndex]!;
    const cast = sweep.casts[scenarioIndex];
    const arm = sweep.arms[armIndex]!;
    const { agent } = sweep.recorded[armIndex]!;
    const armsFile = sweep.armsFile?.arms.has(arm.name) === true ? sweep.armsFile.path : undefined;
    for (const { seed, reasons } of cell.traceCandidates()) {
      const member = cast === undefined ? undefined : memberFor(seed, sweep.baseSeed, cast.length);
      traces.push(
        await captureTrace(
          member === undefined ? scenario : cast![member]!,
          arm,
          seed,
          sweep.sweepSeed,
          reasons,
          model,
          sweep.stream,
          // A recording sweep's runs are re-run as they were; a replayed one's come from the cassette again.
          sweep.cassette?.mode === 'replay' ? sweep.cassette : undefined,
          {
            ...(ref === undefined ? {} : { scenario: ref }),
            ...(armsFile === undefined ? {} : { armsFile }),
            // An arms file names its agents itself; an agent from --agent is named again.
            ...(armsFile === undefined && agent?.kind === 'module' ? { agent: shownAgentSpec(agent) } : {}),
            ...(member === undefined || sweep.ensemble === undefined ? {} : { ensemble: sweep.ensemble, member }),
          },
          sweep.promptCache,
        ),
      );
    }
  }
  return traces;
}
