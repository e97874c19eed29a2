import type { AgentEvent } from '../loop/events.js';
import { attribute, OtlpTraceWriter } from '../results/otlp-trace.js';
import type { PersonaEnsemble } from '../scenarios/persona-ensemble.js';
import { UserInputError } from '../user-input-error.js';
import { VERSION } from '../version.js';
import type { Arm } from '../arms/arms.js';
import { ensembleCast, memberFor } from '../sweep/ensemble-cast.js';
import type { ModelSource } from '../run/model-source.js';
import { runSpans } from './otel-spans.js';
import { runOne } from '../arms/run-one.js';
import type { ScenarioSource } from '../sweep/scenario-source.js';
import { planSweep, type Shard } from '../sweep/sweep-plan.js';

/** gen_ai.provider.name of the simulated model (a custom value: no provider is imitated exactly). */
export const SIMULATED_PROVIDER = 'spiralbench.simulated';

export interface OtelExportOptions {
  /** The OTLP/JSON file to write. */
  readonly path: string;
  readonly scenarios: readonly ScenarioSource[];
  readonly arms: readonly Arm[];
  readonly seeds: number;
  /** @default 1 */
  readonly baseSeed?: number;
  /** @default 0 */
  readonly sweepSeed?: number;
  readonly model: ModelSource;
  /** @default false */
  readonly stream?: boolean;
  /** Our loop's requests marked for the prompt cache, as the sweep's were. @default true */
  readonly promptCache?: boolean;
  /** @default the whole sweep */
  readonly shard?: Shard;
  /** @default none */
  readonly ensemble?: PersonaEnsemble;
}

/** `--otel` asks for what only a simulated model can give: every run again, the same. */
export function checkOtelExport(model: ModelSource): void {
  if (model.kind !== 'simulated')
    throw UserInputError.single(
      '--otel',
      '',
      'the simulated model (in-process or --via sdk): a real or live run would not replay the same, so its spans cannot be taken again',
    );
}

/**
 * Every run of the sweep (or shard) as OTLP spans, in the sweep's order. Runs are seeded,
 * so each is run again here, in this thread, with its events recorded, as traces.jsonl is
 * made: the file's bytes do not depend on the workers the sweep used, and a sweep without
 * `--otel` pays nothing. Returns the runs and spans written.
 */
export async function exportOtel(options: OtelExportOptions): Promise<{ runs: number; spans: number }> {
  checkOtelExport(options.model);
  const sweepSeed = options.sweepSeed ?? 0;
  const seeds = { base: options.baseSeed ?? 1, count: options.seeds };
  const plan = planSweep(
    {
      scenarios: options.scenarios.map(({ scenario, path }) => ({ id: scenario.id, path })),
      arms: options.arms,
      seeds,
      sweepSeed,
      model: 'simulated',
    },
    options.seeds,
    options.shard,
  );
  const casts = options.scenarios.map(({ scenario, texts }) =>
    ensembleCast(scenario, texts, options.ensemble?.members),
  );
  const writer = new OtlpTraceWriter(options.path, [
    attribute('service.name', 'spiralbench'),
    attribute('service.version', VERSION),
    attribute('spiralbench.sweep_seed', sweepSeed),
  ]);
  let runs = 0;
  try {
    for (let index = 0; index < plan.chunkCount; index++) {
      const chunk = plan.chunk(index);
      const { scenario } = options.scenarios[chunk.scenarioIndex]!;
      const cast = casts[chunk.scenarioIndex];
      const arm = options.arms[chunk.armIndex]!;
      for (let seed = chunk.seedFrom; seed < chunk.seedTo; seed++) {
        const member = cast === undefined ? undefined : memberFor(seed, seeds.base, cast.length);
        const events: AgentEvent[] = [];
        const { record } = await runOne({
          sweepSeed,
          scenario: member === undefined ? scenario : cast![member]!,
          arm,
          seed,
          model: options.model,
          stream: options.stream === true,
          promptCache: options.promptCache !== false,
          member,
          onEvent: (event) => events.push(event),
        });
        writer.append(
          runSpans({
            run: { sweepSeed, scenario: scenario.id, arm: arm.name, seed },
            record,
            events,
            provider: SIMULATED_PROVIDER,
          }),
        );
        runs += 1;
      }
    }
    return { runs, spans: writer.close() };
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
