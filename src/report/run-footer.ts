import { describeFailure } from '../run/failure-reason.js';
import type { RunRecord } from '../results/run-record-schema.js';

/** What a run's footer reads from its record. */
export type FooterRecord = Pick<
  RunRecord,
  'tool_calls' | 'tool_executions' | 'model_calls' | 'input_tokens' | 'output_tokens' | 'virtual_ms'
> & {
  /** As written, or as read back from runs.jsonl. */
  readonly faults: Readonly<Record<string, number>>;
  readonly failure_reason?: RunRecord['failure_reason'] | undefined;
};

/**
 * The lines that close a replayed run, whether it ran again (`replay`) or is read back as
 * recorded (`replay --results`): why it failed, its verdict, what it cost, the faults it met.
 *
 * @example
 * runFooter(record, { verdict: record.verdict, reason: record.verdict_reason })
 */
export function runFooter(
  record: FooterRecord,
  verdict: { readonly verdict: string; readonly reason: string },
): string[] {
  return [
    ...(record.failure_reason === undefined ? [] : [`failure_reason: ${describeFailure(record.failure_reason)}`]),
    `verdict: ${verdict.verdict} — ${verdict.reason}`,
    `tool calls ${record.tool_calls} · tool executions ${record.tool_executions} · model calls ${record.model_calls} · tokens ${record.input_tokens} in / ${record.output_tokens} out · ${(record.virtual_ms / 1000).toFixed(1)} s virtual`,
    `faults: ${
      Object.entries(record.faults)
        .filter(([, n]) => n > 0)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ') || 'none'
    }`,
  ];
}
