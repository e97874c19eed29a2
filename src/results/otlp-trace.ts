import { createHash } from 'node:crypto';
import { z } from 'zod';
import { VERSION } from '../version.js';
import { UserInputError } from '../user-input-error.js';
import { discard } from './atomic-write.js';
import { nonRegularKind } from './file-kind.js';
import { NODE_FS, ResultsWriteError, tempPath, writeAll, type ResultsFs } from './results-fs.js';

/**
 * The OTLP/JSON trace file `run --otel` writes: one ExportTraceServiceRequest (the protobuf
 * JSON mapping of opentelemetry/proto/collector/trace/v1) on one line, so it parses as one
 * JSON document and is also the one-request-per-line file the Collector's otlpjsonfile
 * receiver reads. See docs/otel.md.
 */

/** Span kinds used here (opentelemetry.proto.trace.v1.Span.SpanKind). */
export const SPAN_KIND = { internal: 1, client: 3 } as const;
/** Status codes (opentelemetry.proto.trace.v1.Status.StatusCode). */
export const STATUS_CODE = { ok: 1, error: 2 } as const;

/**
 * Virtual time 0 of every run, as Unix ms (2025-01-01T00:00:00Z): a constant, so a file's
 * bytes depend on the sweep alone, never on when it ran.
 */
export const OTLP_EPOCH_MS = 1_735_689_600_000;

export type OtlpValue =
  | { readonly stringValue: string }
  | { readonly intValue: string }
  | { readonly doubleValue: number }
  | { readonly boolValue: boolean };
export interface OtlpAttribute {
  readonly key: string;
  readonly value: OtlpValue;
}
export interface OtlpEvent {
  readonly timeUnixNano: string;
  readonly name: string;
  readonly attributes: readonly OtlpAttribute[];
}
export interface OtlpLink {
  readonly traceId: string;
  readonly spanId: string;
  readonly attributes: readonly OtlpAttribute[];
}
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: (typeof SPAN_KIND)[keyof typeof SPAN_KIND];
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes: readonly OtlpAttribute[];
  readonly events: readonly OtlpEvent[];
  readonly links?: readonly OtlpLink[];
  readonly status: { readonly code: (typeof STATUS_CODE)[keyof typeof STATUS_CODE]; readonly message?: string };
}

/** A scalar as OTLP types it: whole numbers as int64 (a decimal string), others as double. */
export function otlpValue(value: string | number | boolean): OtlpValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  return Number.isSafeInteger(value) ? { intValue: String(value) } : { doubleValue: value };
}

export function attribute(key: string, value: string | number | boolean): OtlpAttribute {
  return { key, value: otlpValue(value) };
}

/** Virtual ms of a run as Unix nanoseconds, in the decimal string OTLP/JSON uses for fixed64. */
export function unixNano(virtualMs: number): string {
  return (BigInt(OTLP_EPOCH_MS) * 1_000_000n + BigInt(Math.round(virtualMs * 1_000_000))).toString();
}

/** What names one run in a sweep: its ids are hashed from it, never drawn. */
export interface RunIdentity {
  readonly sweepSeed: number;
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
}

function hexHash(text: string, chars: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, chars);
}

/** The run's trace id (32 hex digits), the same in every process that exports the run. */
export function traceIdOf(run: RunIdentity): string {
  return hexHash(JSON.stringify(['trace', run.sweepSeed, run.scenario, run.arm, run.seed]), 32);
}

/** The id (16 hex digits) of the run's `index`-th span. */
export function spanIdOf(run: RunIdentity, index: number): string {
  return hexHash(JSON.stringify(['span', run.sweepSeed, run.scenario, run.arm, run.seed, index]), 16);
}

const hex = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));
const nanos = z.string().regex(/^\d+$/);
const anyValueSchema = z.union([
  z.strictObject({ stringValue: z.string() }),
  z.strictObject({ boolValue: z.boolean() }),
  // int64 in the protobuf JSON mapping: a decimal string (a number is also accepted by parsers).
  z.strictObject({ intValue: z.union([z.string().regex(/^-?\d+$/), z.int()]) }),
  z.strictObject({ doubleValue: z.number() }),
]);
const keyValueSchema = z.strictObject({ key: z.string().min(1), value: anyValueSchema });
const attributesSchema = z.array(keyValueSchema).optional();
const spanSchema = z.strictObject({
  traceId: hex(32),
  spanId: hex(16),
  traceState: z.string().optional(),
  parentSpanId: hex(16).optional(),
  flags: z.int().nonnegative().optional(),
  name: z.string().min(1),
  kind: z.int().min(0).max(5),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos,
  attributes: attributesSchema,
  droppedAttributesCount: z.int().nonnegative().optional(),
  events: z
    .array(
      z.strictObject({
        timeUnixNano: nanos,
        name: z.string().min(1),
        attributes: attributesSchema,
        droppedAttributesCount: z.int().nonnegative().optional(),
      }),
    )
    .optional(),
  droppedEventsCount: z.int().nonnegative().optional(),
  links: z
    .array(
      z.strictObject({
        traceId: hex(32),
        spanId: hex(16),
        traceState: z.string().optional(),
        attributes: attributesSchema,
        droppedAttributesCount: z.int().nonnegative().optional(),
        flags: z.int().nonnegative().optional(),
      }),
    )
    .optional(),
  droppedLinksCount: z.int().nonnegative().optional(),
  status: z.strictObject({ message: z.string().optional(), code: z.int().min(0).max(2).optional() }).optional(),
});

/** ExportTraceServiceRequest in the OTLP/JSON encoding, strict: an unknown or misspelt field is refused. */
export const exportTraceServiceRequestSchema = z.strictObject({
  resourceSpans: z.array(
    z.strictObject({
      resource: z
        .strictObject({ attributes: attributesSchema, droppedAttributesCount: z.int().nonnegative().optional() })
        .optional(),
      scopeSpans: z.array(
        z.strictObject({
          scope: z
            .strictObject({
              name: z.string(),
              version: z.string().optional(),
              attributes: attributesSchema,
              droppedAttributesCount: z.int().nonnegative().optional(),
            })
            .optional(),
          spans: z.array(spanSchema),
          schemaUrl: z.string().optional(),
        }),
      ),
      schemaUrl: z.string().optional(),
    }),
  ),
});
export type StoredTraceRequest = z.infer<typeof exportTraceServiceRequestSchema>;

/** The GenAI semantic conventions version the spans follow. */
export const SEMCONV_SCHEMA_URL = 'https://opentelemetry.io/schemas/1.41.0';

/**
 * Streams spans into an OTLP/JSON file, run by run, so a large sweep is never held in
 * memory; the file appears at `path` only when `close` has written it whole (atomic, like
 * every results file). `abandon` removes what was written.
 */
export class OtlpTraceWriter {
  readonly #path: string;
  readonly #temp: string;
  readonly #fs: ResultsFs;
  #fd: number | undefined;
  #spans = 0;

  constructor(path: string, resource: readonly OtlpAttribute[], fs: ResultsFs = NODE_FS) {
    this.#path = path;
    this.#temp = tempPath(path);
    this.#fs = fs;
    const head = `{"resourceSpans":[{"resource":${JSON.stringify({ attributes: resource })},"scopeSpans":[{"scope":${JSON.stringify({ name: 'spiralbench', version: VERSION })},"spans":[`;
    try {
      this.#fd = fs.openSync(this.#temp, 'w');
      writeAll(fs, this.#fd, head);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Appends one run's spans. */
  append(spans: readonly OtlpSpan[]): void {
    if (spans.length === 0) return;
    const text = spans.map((span) => JSON.stringify(span)).join(',');
    try {
      writeAll(this.#fs, this.#fd!, this.#spans === 0 ? text : `,${text}`);
    } catch (error) {
      this.#fail(error);
    }
    this.#spans += spans.length;
  }

  /**
   * Ends the document, syncs it and renames it into place; returns the spans written. A
   * link, FIFO or device put at the path since the export was checked is refused, not
   * replaced (a UserInputError), and nothing is left behind.
   */
  close(): number {
    const kind = nonRegularKind(this.#path);
    if (kind !== undefined) {
      this.abandon();
      throw UserInputError.single(
        this.#path,
        '',
        `a new path or a regular file for the spans; it is now ${kind}, which writing them would replace, so they were not written`,
      );
    }
    try {
      writeAll(this.#fs, this.#fd!, `],"schemaUrl":"${SEMCONV_SCHEMA_URL}"}]}]}\n`);
      this.#fs.fsyncSync(this.#fd!);
      const fd = this.#fd!;
      this.#fd = undefined;
      this.#fs.closeSync(fd);
      this.#fs.renameSync(this.#temp, this.#path);
    } catch (error) {
      this.#fail(error);
    }
    return this.#spans;
  }

  abandon(): void {
    discard(this.#fs, this.#temp, this.#fd);
    this.#fd = undefined;
  }

  #fail(error: unknown): never {
    this.abandon();
    throw new ResultsWriteError(this.#path, error);
  }
}
