import type { StoredTraceRequest } from './otlp-trace.js';

type Span = StoredTraceRequest['resourceSpans'][number]['scopeSpans'][number]['spans'][number];

/** Every span of an OTLP/JSON request, in file order. */
export function allSpans(request: StoredTraceRequest): Span[] {
  return request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
}

const operation = (span: Span) =>
  span.attributes?.find((a) => a.key === 'gen_ai.operation.name')?.value as { stringValue?: string } | undefined;

/**
 * What is wrong with how the spans nest, as sentences (none: nothing): one invoke_agent
 * root per trace, chat and execute_tool spans its children, each child inside its parent's
 * time range, every link to a chat span of the same trace.
 */
export function nestingProblems(request: StoredTraceRequest): string[] {
  const spans = allSpans(request);
  const byId = new Map(spans.map((span) => [`${span.traceId}/${span.spanId}`, span]));
  const problems: string[] = [];
  if (byId.size !== spans.length) problems.push('span ids repeat within a trace');
  const roots = new Map<string, number>();
  for (const span of spans) {
    const op = operation(span)?.stringValue;
    if (span.parentSpanId === undefined) {
      if (op !== 'invoke_agent') problems.push(`root ${span.name} is not invoke_agent`);
      roots.set(span.traceId, (roots.get(span.traceId) ?? 0) + 1);
      continue;
    }
    const parent = byId.get(`${span.traceId}/${span.parentSpanId}`);
    if (parent === undefined) {
      problems.push(`${span.name}: parent ${span.parentSpanId} is not a span of its trace`);
      continue;
    }
    if (operation(parent)?.stringValue !== 'invoke_agent') problems.push(`${span.name}: parent is ${parent.name}`);
    if (op !== 'chat' && op !== 'execute_tool') problems.push(`${span.name}: unexpected operation ${op}`);
    if (BigInt(span.startTimeUnixNano) < BigInt(parent.startTimeUnixNano))
      problems.push(`${span.name} starts before its parent`);
    if (BigInt(span.endTimeUnixNano) > BigInt(parent.endTimeUnixNano))
      problems.push(`${span.name} ends after its parent`);
    if (BigInt(span.endTimeUnixNano) < BigInt(span.startTimeUnixNano))
      problems.push(`${span.name} ends before it starts`);
    for (const link of span.links ?? []) {
      const linked = byId.get(`${link.traceId}/${link.spanId}`);
      if (linked === undefined || operation(linked)?.stringValue !== 'chat')
        problems.push(`${span.name}: link to ${link.spanId} is not a chat span of its trace`);
    }
  }
  for (const [trace, count] of roots) if (count !== 1) problems.push(`trace ${trace} has ${count} roots`);
  return problems;
}
