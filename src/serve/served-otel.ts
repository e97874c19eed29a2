import { runSpans } from '../otel/otel-spans.js';
import { SIMULATED_PROVIDER } from '../otel/otel-export.js';
import type { RunRecord } from '../results/run-record-schema.js';
import type { AgentEvent } from '../loop/events.js';
import { attribute, OtlpTraceWriter } from '../results/otlp-trace.js';
import { VERSION } from '../version.js';

/**
 * A served sweep's runs as OTLP spans, in seed order, as `run --otel` writes them. A
 * served run cannot be run again from its seed, so its spans come from what it recorded
 * while it ran (the record and its tool events). Returns the runs and spans written.
 *
 * @example
 * const { runs, spans } = exportServedOtel('served.otlp.json', 0, sweep.endedRuns());
 */
export function exportServedOtel(
  path: string,
  sweepSeed: number,
  runs: ReadonlyArray<{ readonly record: RunRecord; readonly events: readonly AgentEvent[] }>,
): { runs: number; spans: number } {
  const writer = new OtlpTraceWriter(path, [
    attribute('service.name', 'spiralbench'),
    attribute('service.version', VERSION),
    attribute('spiralbench.sweep_seed', sweepSeed),
  ]);
  try {
    for (const { record, events } of runs)
      writer.append(
        runSpans({
          run: { sweepSeed, scenario: record.scenario, arm: record.arm, seed: record.seed },
          record,
          events,
          provider: SIMULATED_PROVIDER,
        }),
      );
    return { runs: runs.length, spans: writer.close() };
  } catch (error) {
    writer.abandon();
    throw error;
  }
}
