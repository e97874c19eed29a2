import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { exportTraceServiceRequestSchema, type StoredTraceRequest } from '../src/results/otlp-trace.js';
import { cli, tempDir } from './cli-helpers.js';

type StoredAttributes = NonNullable<StoredTraceRequest['resourceSpans'][number]['resource']>['attributes'];

function attributeValue(value: NonNullable<StoredAttributes>[number]['value']): AttributeValue {
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  return value.doubleValue;
}

function attributesOf(list: StoredAttributes): Attributes {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, attributeValue(entry.value)]));
}

function hrTime(nanos: string): HrTime {
  const n = BigInt(nanos);
  return [Number(n / 1_000_000_000n), Number(n % 1_000_000_000n)];
}

/** Our stored request as the OpenTelemetry SDK's own finished spans. */
function readableSpans(request: StoredTraceRequest): ReadableSpan[] {
  return request.resourceSpans.flatMap((resourceSpans) => {
    const resource = resourceFromAttributes(
      attributesOf(resourceSpans.resource?.attributes),
      resourceSpans.schemaUrl === undefined ? {} : { schemaUrl: resourceSpans.schemaUrl },
    );
    return resourceSpans.scopeSpans.flatMap((scopeSpans) => {
      const scope = {
        name: scopeSpans.scope?.name ?? '',
        ...(scopeSpans.scope?.version === undefined ? {} : { version: scopeSpans.scope.version }),
        ...(scopeSpans.schemaUrl === undefined ? {} : { schemaUrl: scopeSpans.schemaUrl }),
      };
      return scopeSpans.spans.map(
        (span): ReadableSpan => ({
          name: span.name,
          kind: span.kind - 1,
          spanContext: () => ({ traceId: span.traceId, spanId: span.spanId, traceFlags: 1 }),
          ...(span.parentSpanId === undefined || span.parentSpanId === ''
            ? {}
            : {
                parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1, isRemote: false },
              }),
          startTime: hrTime(span.startTimeUnixNano),
          endTime: hrTime(span.endTimeUnixNano),
          status: {
            code: span.status?.code ?? 0,
            ...(span.status?.message === undefined ? {} : { message: span.status.message }),
          },
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map((link) => ({
            context: { traceId: link.traceId, spanId: link.spanId, traceFlags: 1, isRemote: false },
            attributes: attributesOf(link.attributes),
          })),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            time: hrTime(event.timeUnixNano),
            attributes: attributesOf(event.attributes),
          })),
          duration: [0, 0],
          ended: true,
          resource,
          instrumentationScope: scope,
          droppedAttributesCount: 0,
          droppedEventsCount: 0,
          droppedLinksCount: 0,
        }),
      );
    });
  });
}

/**
 * A request as JSON with what proto3 leaves unsaid dropped (zeros, empty strings and lists)
 * and spans in one order: the official serializer writes `droppedAttributesCount: 0` and
 * empty `events`, where our file leaves them out. `flags` goes too: the serializer sets
 * the W3C sampled bit and HAS_IS_REMOTE (0x101) from an SDK span context, which our file
 * does not claim. An `intValue` is compared as the decimal string proto3's JSON mapping
 * reads either way.
 */
function canonical(request: StoredTraceRequest): unknown {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    const kept: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // proto3's JSON takes an int64 as a decimal string or a number: we write strings, the serializer numbers.
      if (key === 'intValue') {
        kept[key] = String(inner);
        continue;
      }
      if (key === 'flags' || inner === 0 || inner === '' || inner === undefined) continue;
      if (Array.isArray(inner) && inner.length === 0) continue;
      const stripped = strip(inner);
      if (typeof stripped === 'object' && stripped !== null && Object.keys(stripped).length === 0) continue;
      kept[key] = stripped;
    }
    return kept;
  };
  const copy = JSON.parse(JSON.stringify(request)) as StoredTraceRequest;
  for (const resourceSpans of copy.resourceSpans)
    for (const scopeSpans of resourceSpans.scopeSpans) scopeSpans.spans.sort((a, b) => (a.spanId < b.spanId ? -1 : 1));
  return strip(copy);
}

describe('run --otel against the OpenTelemetry JS exporter', () => {
  it('says what the official JSON serializer says for the same spans, and our schema reads its output', () => {
    const dir = tempDir();
    const file = join(dir, 'trace.json');
    const run = cli(
      ['run', '-s', 'fetch-transform-write', '-a', 'none,article', '-n', '5', '-o', join(dir, 'out')].concat([
        '--otel',
        file,
        '--json',
      ]),
    );
    expect(run.status, run.stderr).toBe(0);
    const ours = exportTraceServiceRequestSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    const spans = readableSpans(ours);
    expect(spans.filter((span) => span.name.startsWith('invoke_agent '))).toHaveLength(10);

    const bytes = JsonTraceSerializer.serializeRequest(spans);
    expect(bytes).toBeDefined();
    const official = exportTraceServiceRequestSchema.parse(JSON.parse(new TextDecoder().decode(bytes)));
    expect(canonical(official)).toEqual(canonical(ours));
    // The official encoding and ours agree on the wire forms a receiver parses: hex ids, nanos as strings.
    const first = official.resourceSpans[0]?.scopeSpans[0]?.spans[0];
    expect(first?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.startTimeUnixNano).toMatch(/^\d+$/);
  });
});
