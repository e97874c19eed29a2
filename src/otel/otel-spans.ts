import type { AgentEvent } from '../loop/events.js';
import {
  attribute,
  SPAN_KIND,
  STATUS_CODE,
  spanIdOf,
  traceIdOf,
  unixNano,
  type OtlpAttribute,
  type OtlpEvent,
  type OtlpSpan,
  type RunIdentity,
} from '../results/otlp-trace.js';
import type { RunRecord } from '../results/run-record-schema.js';

/** Event fields never exported: message contents and free payloads (privacy, docs/otel.md). */
const PRIVATE_FIELDS = new Set(['type', 'at', 'input', 'content', 'payload', 'target']);

/** Events that are a guard stepping in; exported as `spiralbench.guard` events. */
const GUARD_EVENTS = new Set<AgentEvent['type']>([
  'agent.repeat.blocked',
  'agent.budget.exhausted',
  'agent.guardrail.escalated',
  'agent.loop.detected',
  'agent.tool.arguments',
  'agent.tool.retry',
  'agent.model.retry',
  'agent.model.fallback',
  'agent.messages.fixed',
  'agent.output_limit',
  'agent.iterations.extended',
  'agent.compaction.run',
  'agent.recovery.fired',
  'agent.injection.withheld',
  'agent.trust.refused',
  'agent.tools.filtered',
  'agent.contract.broken',
  'agent.config.rolled_back',
  'agent.write.verified',
]);

/** Events about one tool call, put on its span when it is open. */
const TOOL_EVENTS = new Set<AgentEvent['type']>([
  'agent.tool.fault',
  'agent.tool.retry',
  'agent.tool.arguments',
  'agent.tool.early_start',
  'agent.tool.replayed',
  'agent.repeat.blocked',
]);

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** `agent.loop.detected` → `loop.detected`, `agent_run.resumed` → `run.resumed`. */
const shortType = (type: string) => type.replace(/^agent_run\./, 'run.').replace(/^agent\./, '');

/** A loop event as an OTLP span event: its scalar fields, nothing that could hold content. */
function spanEvent(event: AgentEvent): OtlpEvent {
  const attributes: OtlpAttribute[] = [];
  let name = `spiralbench.${shortType(event.type)}`;
  if (event.type === 'agent.tool.fault') {
    name = 'spiralbench.fault';
    attributes.push(attribute('spiralbench.fault.target', 'tool'));
  } else if (GUARD_EVENTS.has(event.type)) {
    name = 'spiralbench.guard';
    attributes.push(attribute('spiralbench.guard.event', shortType(event.type)));
  }
  if (event.type === 'agent.model.retry') attributes.push(attribute('error.type', event.errorClass));
  for (const [key, value] of Object.entries(event)) {
    if (PRIVATE_FIELDS.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      attributes.push(attribute(key === 'fault' ? 'spiralbench.fault.kind' : `spiralbench.${snake(key)}`, value));
  }
  return { timeUnixNano: unixNano(event.at), name, attributes };
}

interface OpenTool {
  readonly index: number;
  readonly id: string;
  readonly tool: string;
  readonly start: number;
  readonly chat: string | undefined;
  readonly events: OtlpEvent[];
}

export interface RunSpansInput {
  readonly run: RunIdentity;
  readonly record: RunRecord;
  readonly events: readonly AgentEvent[];
  /** gen_ai.provider.name. */
  readonly provider: string;
}

/**
 * One run as OTLP spans: the `invoke_agent <arm>` span (the verdict on it), a `chat <model>`
 * span per model call, and an `execute_tool <tool>` span per tool call. Tool spans are
 * children of the run span, linked to the chat span whose reply asked for them: the tool
 * runs after that reply has arrived, so as its child it would lie outside its parent's
 * time range (the GenAI agent-span examples nest chat and execute_tool side by side).
 * Faults and guard interventions are span events. Pure: the same run gives the same bytes.
 */
export function runSpans({ run, record, events, provider }: RunSpansInput): OtlpSpan[] {
  const traceId = traceIdOf(run);
  const runSpanId = spanIdOf(run, 0);
  let next = 1;
  const children: Array<{ readonly at: number; readonly span: OtlpSpan }> = [];
  const runEvents: OtlpEvent[] = [];
  const open: OpenTool[] = [];
  let pending: OtlpEvent[] = [];
  const start = events[0]?.at ?? 0;
  let end = start;
  let cursor = start;
  let chat: string | undefined;
  const model = record.model;

  const chatSpan = (from: number, to: number, extra: readonly OtlpAttribute[], failure?: string): string => {
    const spanId = spanIdOf(run, next++);
    children.push({
      at: from,
      span: {
        traceId,
        spanId,
        parentSpanId: runSpanId,
        name: `chat ${model}`,
        kind: SPAN_KIND.client,
        startTimeUnixNano: unixNano(from),
        endTimeUnixNano: unixNano(to),
        attributes: [
          attribute('gen_ai.operation.name', 'chat'),
          attribute('gen_ai.provider.name', provider),
          attribute('gen_ai.request.model', model),
          ...extra,
        ],
        events: pending,
        status: failure === undefined ? { code: STATUS_CODE.ok } : { code: STATUS_CODE.error, message: failure },
      },
    });
    pending = [];
    return spanId;
  };
  const closeTool = (tool: OpenTool, at: number, isError: boolean | undefined): void => {
    open.splice(open.indexOf(tool), 1);
    children.push({
      at: tool.start,
      span: {
        traceId,
        spanId: spanIdOf(run, tool.index),
        parentSpanId: runSpanId,
        name: `execute_tool ${tool.tool}`,
        kind: SPAN_KIND.internal,
        startTimeUnixNano: unixNano(tool.start),
        endTimeUnixNano: unixNano(at),
        attributes: [
          attribute('gen_ai.operation.name', 'execute_tool'),
          attribute('gen_ai.tool.name', tool.tool),
          attribute('gen_ai.tool.call.id', tool.id),
          ...(isError === true ? [attribute('error.type', 'tool_error')] : []),
          ...(isError === undefined ? [attribute('spiralbench.tool.unanswered', true)] : []),
        ],
        events: tool.events,
        ...(tool.chat === undefined ? {} : { links: [{ traceId, spanId: tool.chat, attributes: [] }] }),
        status:
          isError === true
            ? { code: STATUS_CODE.error, message: 'the tool answered with an error' }
            : { code: STATUS_CODE.ok },
      },
    });
  };

  for (const event of events) {
    end = Math.max(end, event.at);
    switch (event.type) {
      case 'agent.model.call':
        chat = chatSpan(cursor, event.at, [
          attribute('gen_ai.usage.input_tokens', event.inputTokens),
          attribute('gen_ai.usage.output_tokens', event.outputTokens),
          attribute('spiralbench.iteration', event.iteration),
        ]);
        cursor = event.at;
        continue;
      case 'agent.model.retry':
      case 'agent.model.fallback':
      case 'agent.config.rolled_back':
        // Inside the call that is under way: they belong to its span.
        pending.push(spanEvent(event));
        continue;
      case 'agent.tool.call':
        open.push({ index: next++, id: event.id, tool: event.tool, start: event.at, chat, events: [] });
        break;
      case 'agent.tool.result': {
        const tool = open.find((candidate) => candidate.id === event.id);
        if (tool !== undefined) closeTool(tool, event.at, event.isError);
        break;
      }
      case 'agent_run.failed':
        // A model call that failed for good has no agent.model.call: its span ends with the run.
        if (event.reason.startsWith('model call failed') || pending.length > 0)
          chatSpan(cursor, event.at, [], event.reason);
        runEvents.push(spanEvent(event));
        break;
      case 'agent_run.started':
      case 'agent_run.completed':
        break;
      default: {
        const tool =
          TOOL_EVENTS.has(event.type) && 'tool' in event
            ? open.findLast((candidate) => candidate.tool === event.tool)
            : undefined;
        (tool?.events ?? runEvents).push(spanEvent(event));
      }
    }
    cursor = Math.max(cursor, event.at);
  }
  // A call a guard stopped the run at has no result: its span ends with the run.
  for (const tool of [...open]) closeTool(tool, end, undefined);
  if (pending.length > 0) runEvents.push(...pending);

  const failed = record.outcome === 'failed' || record.verdict === 'failure' || record.verdict === 'harmful';
  const failure =
    record.outcome === 'failed' && record.failure_reason !== undefined
      ? `${record.failure_reason.error_class}: ${record.failure_reason.message}`
      : record.verdict_reason;
  const root: OtlpSpan = {
    traceId,
    spanId: runSpanId,
    name: `invoke_agent ${run.arm}`,
    kind: SPAN_KIND.internal,
    startTimeUnixNano: unixNano(start),
    endTimeUnixNano: unixNano(end),
    attributes: [
      ...runAttributes(run, record, provider),
      ...(failed ? [attribute('error.type', record.failure_reason?.error_class ?? record.verdict)] : []),
    ],
    events: runEvents,
    status: failed ? { code: STATUS_CODE.error, message: failure } : { code: STATUS_CODE.ok },
  };
  // Children in start order (ties in creation order): lanes can start a tool before the reply's span ends.
  return [root, ...children.sort((a, b) => a.at - b.at).map((child) => child.span)];
}

function runAttributes(run: RunIdentity, record: RunRecord, provider: string): OtlpAttribute[] {
  return [
    attribute('gen_ai.operation.name', 'invoke_agent'),
    attribute('gen_ai.provider.name', provider),
    attribute('gen_ai.agent.name', run.arm),
    attribute('gen_ai.request.model', record.model),
    attribute('gen_ai.usage.input_tokens', record.input_tokens),
    attribute('gen_ai.usage.output_tokens', record.output_tokens),
    attribute('spiralbench.scenario', run.scenario),
    attribute('spiralbench.arm', run.arm),
    attribute('spiralbench.seed', run.seed),
    attribute('spiralbench.sweep_seed', run.sweepSeed),
    ...(record.member === undefined ? [] : [attribute('spiralbench.member', record.member)]),
    attribute('spiralbench.outcome', record.outcome),
    attribute('spiralbench.verdict', record.verdict),
    attribute('spiralbench.verdict_reason', record.verdict_reason),
    attribute('spiralbench.model_calls', record.model_calls),
    attribute('spiralbench.tool_calls', record.tool_calls),
    attribute('spiralbench.tool_executions', record.tool_executions),
    attribute('spiralbench.tool_retries', record.tool_retries),
    attribute('spiralbench.duplicate_side_effects', record.duplicate_side_effects),
    // Always a double, so the field keeps one type across runs (0 would be an int64).
    { key: 'spiralbench.cost_usd', value: { doubleValue: record.cost_usd } },
    // Kinds that struck at least once: an absent kind is 0, and the file stays smaller.
    ...Object.entries(record.faults).flatMap(([kind, n]) =>
      n > 0 ? [attribute(`spiralbench.faults.${kind}`, n)] : [],
    ),
    ...Object.entries(record.model_faults).flatMap(([kind, n]) =>
      n !== undefined && n > 0 ? [attribute(`spiralbench.model_faults.${kind}`, n)] : [],
    ),
  ];
}
