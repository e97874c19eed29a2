import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/events.js';
import { allSpans, nestingProblems } from '../results/otlp-nesting.test-helpers.js';
import { exportTraceServiceRequestSchema, OTLP_EPOCH_MS, type OtlpSpan } from '../results/otlp-trace.js';
import { loadScenario } from '../scenarios/loader.js';
import { resolveArms } from '../arms/arms.js';
import { runSpans } from './otel-spans.js';
import { runOne } from '../arms/run-one.js';

const scenario = loadScenario('fetch-transform-write');
const [none, article] = resolveArms(['none', 'article']);

async function spansOf(arm: typeof none, seed: number): Promise<OtlpSpan[]> {
  const events: AgentEvent[] = [];
  const { record } = await runOne({ sweepSeed: 0, scenario, arm: arm!, seed, onEvent: (e) => events.push(e) });
  return runSpans({
    run: { sweepSeed: 0, scenario: scenario.id, arm: arm!.name, seed },
    record,
    events,
    provider: 'spiralbench.simulated',
  });
}

const request = (spans: readonly OtlpSpan[]) => ({
  resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'spiralbench' }, spans }] }],
});
const attr = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value;

describe('a run as OTLP spans', () => {
  it('nests chat and tool spans under the invoke_agent span, each inside its parent', async () => {
    const spans = await spansOf(article, 3);
    const parsed = exportTraceServiceRequestSchema.parse(JSON.parse(JSON.stringify(request(spans))));
    expect(nestingProblems(parsed)).toEqual([]);
    const [root, ...children] = spans;
    expect(root!.name).toBe('invoke_agent article');
    expect(root!.parentSpanId).toBeUndefined();
    const chats = children.filter((span) => span.name === 'chat simulated');
    const tools = children.filter((span) => span.name.startsWith('execute_tool '));
    expect(chats.length).toBe(Number((attr(root!, 'spiralbench.model_calls') as { intValue: string }).intValue));
    expect(tools.length).toBeGreaterThan(0);
    expect(chats.length + tools.length).toBe(children.length);
    // Each tool span links to the chat span whose reply asked for it, which ended before it started.
    const chatIds = new Map(chats.map((chat) => [chat.spanId, chat]));
    for (const tool of tools) {
      const asked = chatIds.get(tool.links![0]!.spanId)!;
      expect(BigInt(asked.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(tool.startTimeUnixNano));
      expect(attr(tool, 'gen_ai.tool.call.id')).toEqual({ stringValue: expect.stringMatching(/^toolu_/) });
    }
    expect(root!.startTimeUnixNano).toBe(`${OTLP_EPOCH_MS}000000`);
  });

  it('types tokens as int64 strings and the verdict as strings, and sums the chat tokens to the run', async () => {
    const [root, ...children] = await spansOf(none, 2);
    const chats = children.filter((span) => span.name.startsWith('chat '));
    const sum = (key: string, spans: readonly OtlpSpan[]) =>
      spans.reduce(
        (total, span) => total + Number((attr(span, key) as { intValue?: string } | undefined)?.intValue ?? 0),
        0,
      );
    expect(attr(root!, 'gen_ai.usage.input_tokens')).toEqual({ intValue: expect.stringMatching(/^\d+$/) });
    expect(sum('gen_ai.usage.input_tokens', chats)).toBe(sum('gen_ai.usage.input_tokens', [root!]));
    expect(attr(root!, 'spiralbench.verdict')).toEqual({ stringValue: expect.any(String) });
    expect(attr(root!, 'spiralbench.cost_usd')).toEqual({ doubleValue: expect.any(Number) });
    expect(attr(root!, 'gen_ai.operation.name')).toEqual({ stringValue: 'invoke_agent' });
  });

  it('puts injected faults on the tool span they struck', async () => {
    const spans = await spansOf(none, 1);
    const faults = spans.flatMap((span) =>
      span.events.filter((event) => event.name === 'spiralbench.fault').map((event) => ({ span, event })),
    );
    expect(faults.length).toBeGreaterThan(0);
    for (const { span, event } of faults) {
      expect(span.name).toMatch(/^execute_tool /);
      expect(event.attributes).toContainEqual({
        key: 'spiralbench.fault.kind',
        value: { stringValue: expect.any(String) },
      });
    }
  });

  it('gives the same ids and bytes for the same run, other ids for another seed', async () => {
    const a = JSON.stringify(await spansOf(article, 4));
    expect(JSON.stringify(await spansOf(article, 4))).toBe(a);
    const other = await spansOf(article, 5);
    expect(other[0]!.traceId).not.toBe(JSON.parse(a)[0].traceId);
  });

  it('ends a run whose model call failed with an ERROR chat span and an ERROR run span', () => {
    const events: AgentEvent[] = [
      { type: 'agent_run.started', at: 0 },
      {
        type: 'agent.model.retry',
        at: 5,
        model: 'm',
        attempt: 1,
        delayMs: 10,
        errorClass: 'RateLimitError',
        status: 429,
      },
      { type: 'agent_run.failed', at: 20, reason: 'model call failed: RateLimitError' },
      { type: 'agent_run.completed', at: 20, outcome: 'failed' },
    ];
    const record = {
      model: 'm',
      outcome: 'failed',
      verdict: 'failure',
      verdict_reason: 'nothing written',
      faults: {},
      model_faults: {},
    } as unknown as Parameters<typeof runSpans>[0]['record'];
    const spans = runSpans({ run: { sweepSeed: 0, scenario: 's', arm: 'a', seed: 1 }, record, events, provider: 'p' });
    expect(spans.map((span) => [span.name, span.status.code])).toEqual([
      ['invoke_agent a', 2],
      ['chat m', 2],
    ]);
    expect(spans[1]!.events.map((event) => event.name)).toEqual(['spiralbench.guard']);
    expect(spans[1]!.events[0]!.attributes).toContainEqual({
      key: 'error.type',
      value: { stringValue: 'RateLimitError' },
    });
    expect(allSpans(request(spans) as never)).toHaveLength(2);
  });
});
