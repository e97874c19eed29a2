import { readFileSync, statSync } from 'node:fs';
import { parseJson } from '../results/input-problems.js';
import { forEachLine } from '../results/line-reader.js';
import { UserInputError } from '../user-input-error.js';
import { asArguments } from './trajectory-of-messages.js';
import type { ToolCall, Trajectory, Turn } from './trajectory.js';

/** The GenAI semantic conventions' opt-in attributes that carry what a behaviour statistic reads. */
export const OTLP_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const OTLP_RESULT = 'gen_ai.tool.call.result';

/** A single OTLP/JSON document is read whole; above this, export JSONL (one request a line), which streams. */
const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

interface LooseSpan {
  readonly traceId?: unknown;
  readonly spanId?: unknown;
  readonly name?: unknown;
  readonly startTimeUnixNano?: unknown;
  readonly attributes?: unknown;
  readonly status?: { readonly code?: unknown };
}

interface SpanStep {
  readonly start: bigint;
  readonly order: number;
  readonly step: { readonly kind: 'chat' } | { readonly kind: 'tool'; readonly call: ToolCall };
}

/**
 * Trajectories of an OTLP/JSON trace file: one trace a run, its `execute_tool` spans the
 * calls (name from gen_ai.tool.name, arguments from gen_ai.tool.call.arguments, result text
 * from gen_ai.tool.call.result, an error when the span has error.type or an error status),
 * grouped into turns by the `chat` spans between them (a chat span no tool follows is a
 * text turn). The file is one ExportTraceServiceRequest, or JSONL of them (a collector's
 * file exporter), which streams.
 *
 * A span without the arguments or the result text is refused, naming the span: the
 * statistics read what the agent sent and what it read back, and guessing them would
 * invent behaviour. spiralbench's own `run --otel` export records neither (its traces
 * hold timings and verdicts); read its results folder instead.
 */
export async function readOtlpTrajectories(
  file: string,
  onTrajectory: (trajectory: Trajectory) => void,
): Promise<number> {
  const runs = new Map<string, SpanStep[]>();
  let order = 0;
  const take = (request: unknown, source: string) => {
    for (const span of spansOf(request, source)) {
      const step = stepOf(span, source);
      if (step === undefined) continue;
      const trace = typeof span.traceId === 'string' ? span.traceId : '';
      const steps = runs.get(trace) ?? [];
      steps.push({ start: nanos(span.startTimeUnixNano), order: order++, step });
      runs.set(trace, steps);
    }
  };
  if (statSync(file).size <= WHOLE_FILE_LIMIT && looksWhole(file)) {
    take(parseJson(readFileSync(file, 'utf8'), file, 'an OTLP/JSON trace file'), file);
  } else {
    await forEachLine(file, (line, lineNumber) => {
      const source = `${file}:${lineNumber}`;
      take(parseJson(line, source, 'one OTLP/JSON ExportTraceServiceRequest per line'), source);
    });
  }
  for (const [trace, steps] of runs) onTrajectory({ id: trace, turns: turnsOf(steps) });
  return runs.size;
}

/** A whole document (pretty-printed or not) rather than JSONL: its first line is not a whole JSON value. */
function looksWhole(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  try {
    JSON.parse(firstLine);
    return text.trim() === firstLine.trim();
  } catch {
    return true;
  }
}

function spansOf(request: unknown, source: string): LooseSpan[] {
  const resourceSpans = (request as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(resourceSpans))
    throw UserInputError.single(source, 'resourceSpans', 'an OTLP/JSON ExportTraceServiceRequest with resourceSpans');
  const spans: LooseSpan[] = [];
  for (const resource of resourceSpans)
    for (const scope of (resource as { scopeSpans?: unknown[] })?.scopeSpans ?? [])
      for (const span of (scope as { spans?: unknown[] })?.spans ?? []) spans.push(span as LooseSpan);
  return spans;
}

function attributesOf(span: LooseSpan): Map<string, unknown> {
  const found = new Map<string, unknown>();
  if (!Array.isArray(span.attributes)) return found;
  for (const entry of span.attributes as Array<{ key?: unknown; value?: Record<string, unknown> }>) {
    if (typeof entry?.key !== 'string' || entry.value === undefined) continue;
    const value = entry.value;
    found.set(
      entry.key,
      value.stringValue ??
        value.boolValue ??
        value.doubleValue ??
        (value.intValue === undefined ? value : Number(value.intValue)),
    );
  }
  return found;
}

function stepOf(span: LooseSpan, source: string): SpanStep['step'] | undefined {
  const attributes = attributesOf(span);
  const operation = attributes.get('gen_ai.operation.name');
  const name = typeof span.name === 'string' ? span.name : '';
  if (operation === 'chat' || (operation === undefined && name.startsWith('chat'))) return { kind: 'chat' };
  if (operation !== 'execute_tool' && !name.startsWith('execute_tool')) return undefined;
  const tool = attributes.get('gen_ai.tool.name') ?? name.replace(/^execute_tool\s*/, '');
  const where = `span ${typeof span.spanId === 'string' ? span.spanId : '?'} (${name})`;
  const args = attributes.get(OTLP_ARGUMENTS);
  const result = attributes.get(OTLP_RESULT);
  const missing = [args === undefined ? OTLP_ARGUMENTS : '', result === undefined ? OTLP_RESULT : ''].filter(Boolean);
  if (missing.length > 0)
    throw UserInputError.single(
      source,
      where,
      `tool spans carrying ${missing.join(' and ')}: behaviour statistics read what the agent sent and what it read back, and this export lacks them (spiralbench's own --otel export records neither; read its results folder instead, or export these opt-in GenAI attributes from your agent)`,
    );
  const isError = attributes.has('error.type') || span.status?.code === 2;
  let input: unknown = args;
  if (typeof args === 'string') {
    try {
      input = JSON.parse(args);
    } catch {
      input = args;
    }
  }
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return {
    kind: 'tool',
    call: { name: String(tool), input: asArguments(input), result: isError ? { text, is_error: true } : { text } },
  };
}

function nanos(value: unknown): bigint {
  try {
    return typeof value === 'string' || typeof value === 'number' ? BigInt(value) : 0n;
  } catch {
    return 0n;
  }
}

/** Spans in start order; each chat span opens a turn, the tool spans after it are its calls. */
function turnsOf(steps: SpanStep[]): Turn[] {
  steps.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.order - b.order));
  // Without chat spans nothing says which calls one reply made: each call is its own turn.
  if (!steps.some(({ step }) => step.kind === 'chat'))
    return steps.flatMap(({ step }) => (step.kind === 'tool' ? [{ calls: [step.call] }] : []));
  const turns: Turn[] = [];
  let calls: ToolCall[] | undefined;
  let chatOpen = false;
  const close = () => {
    if (calls !== undefined && calls.length > 0) turns.push({ calls });
    else if (chatOpen) turns.push({ text: '' });
    calls = undefined;
    chatOpen = false;
  };
  for (const { step } of steps) {
    if (step.kind === 'chat') {
      close();
      chatOpen = true;
      calls = [];
    } else {
      if (calls === undefined) calls = [];
      calls.push(step.call);
    }
  }
  close();
  return turns;
}
