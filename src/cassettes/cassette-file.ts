import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import type { ModelFaultKind } from '../faults/model-faults.js';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../model/model-client.js';
import { writeBytesAtomic, writeFileAtomic } from '../results/atomic-write.js';
import { scrubProcessSecrets } from '../secrets/process-secrets.js';
import type { StoredModelError } from './model-error-json.js';
import type { RequestParts } from './request-fingerprint.js';

/** The version of the cassette format; a cassette of another version is refused, not misread. */
export const CASSETTE_VERSION = 1;

/** Which run a cassette holds the model calls of. */
export interface CassetteRun {
  readonly scenario: string;
  readonly arm: string;
  readonly seed: number;
  /** The ensemble member that played the run; undefined without an ensemble. */
  readonly member: number | undefined;
}

/** One model call: what was asked (as digests), how long it took, and what came back. */
export interface CassetteExchange {
  readonly request: RequestParts;
  /** Virtual time the call itself took before it answered (a fault's latency), in ms. */
  readonly clock_ms: number;
  /** The model fault the endpoint injected into this call, counted again on replay; null for none. */
  readonly injected: ModelFaultKind | null;
  /** Our loop's calls: the reply, or the error, the client gave. */
  readonly reply?: Message;
  /** Our loop's streamed calls: the events in order (before `error`, when one cut the stream). */
  readonly events?: readonly RawMessageStreamEvent[];
  readonly error?: StoredModelError;
  /** An agent's calls, on the wire: the HTTP response its client got (an error thrown by fetch is `error`). */
  readonly response?: StoredResponse;
}

/** An HTTP response as a cassette keeps it: the body decoded, as JSON when it reads back to the same text. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly json?: unknown;
  readonly text?: string;
}

interface CassetteHeader extends CassetteRun {
  readonly spiralbench_cassette: number;
  /** The client the calls went to, e.g. `simulated` or `anthropic:claude-sonnet-5-5`. */
  readonly model: string;
}

/** A run's cassette as read back. */
export interface Cassette {
  readonly path: string;
  readonly model: string;
  readonly exchanges: readonly CassetteExchange[];
}

/**
 * Where a run's model calls are kept in a cassette folder: one JSON-lines file a run,
 * `<scenario>/<arm>/<seed>.jsonl` (`<seed>-m<member>.jsonl` with an ensemble), so runs of
 * any worker, shard or resumed sweep are written apart. A small file stays plain, to diff
 * in git; one over GZIP_ABOVE bytes is written gzipped, as `<…>.jsonl.gz`.
 */
export function cassettePath(dir: string, run: CassetteRun): string {
  const file = run.member === undefined ? `${run.seed}.jsonl` : `${run.seed}-m${run.member}.jsonl`;
  return join(dir, encodeURIComponent(run.scenario), encodeURIComponent(run.arm), file);
}

/** Files larger than this are gzipped (a long run's replies compress about ninefold). */
const GZIP_ABOVE = 32 * 1024;

/**
 * A call as its line holds it: the request's message digests as those it shares with the
 * call before it (`kept`, a count from the start) and those it adds. A run's transcript
 * grows call by call, so its requests are kept in a size that grows with the run, not its square.
 */
type StoredExchange = Omit<CassetteExchange, 'request'> & {
  readonly request: Omit<RequestParts, 'messages'> & { readonly kept: number; readonly added: readonly string[] };
};

function stored(exchange: CassetteExchange, before: readonly string[]): StoredExchange {
  const { messages, ...parts } = exchange.request;
  let kept = 0;
  while (kept < messages.length && kept < before.length && messages[kept] === before[kept]) kept += 1;
  return { ...exchange, request: { ...parts, kept, added: messages.slice(kept) } };
}

function restored(line: StoredExchange, before: readonly string[]): CassetteExchange {
  const { kept, added, ...parts } = line.request;
  return { ...line, request: { ...parts, messages: [...before.slice(0, kept), ...added] } };
}

/** Writes a run's cassette whole, atomically; secrets of the process are scrubbed from it (writeFileAtomic). */
export function writeCassette(
  dir: string,
  run: CassetteRun,
  model: string,
  exchanges: readonly CassetteExchange[],
): void {
  const path = cassettePath(dir, run);
  mkdirSync(dirname(path), { recursive: true });
  const header: CassetteHeader = { spiralbench_cassette: CASSETTE_VERSION, ...run, model };
  let text = `${JSON.stringify(header)}\n`;
  let before: readonly string[] = [];
  for (const exchange of exchanges) {
    text += `${JSON.stringify(stored(exchange, before))}\n`;
    before = exchange.request.messages;
  }
  // The other form of the same run, from an earlier recording, must not be read instead.
  if (Buffer.byteLength(text) > GZIP_ABOVE) {
    writeBytesAtomic(`${path}.gz`, gzipSync(scrubProcessSecrets(text)));
    rmSync(path, { force: true });
  } else {
    writeFileAtomic(path, text);
    rmSync(`${path}.gz`, { force: true });
  }
}

/** Why a run cannot be replayed from the cassette folder: its file is missing or not a cassette of this format. */
export class CassetteError extends Error {
  override readonly name = 'CassetteError';
}

/** Reads a run's cassette; a CassetteError names the file when it is missing or unreadable. */
export function readCassette(dir: string, run: CassetteRun): Cassette {
  const plain = cassettePath(dir, run);
  const path = existsSync(`${plain}.gz`) ? `${plain}.gz` : plain;
  if (!existsSync(path))
    throw new CassetteError(
      `${plain}: no cassette for ${describeRun(run)} (record it with run --record ${dir}, the same scenarios, arms and seeds)`,
    );
  let text: string;
  try {
    text = path === plain ? readFileSync(path, 'utf8') : gunzipSync(readFileSync(path)).toString('utf8');
  } catch {
    throw new CassetteError(`${path}: not a gzipped cassette`);
  }
  const [first, ...rest] = text.split('\n').filter((line) => line !== '');
  let header: Partial<CassetteHeader>;
  try {
    header = JSON.parse(first ?? '') as Partial<CassetteHeader>;
  } catch {
    throw new CassetteError(`${path}: line 1 is not a cassette header`);
  }
  if (header.spiralbench_cassette !== CASSETTE_VERSION)
    throw new CassetteError(
      `${path}: cassette format ${String(header.spiralbench_cassette)}, this spiralbench reads format ${CASSETTE_VERSION}`,
    );
  let before: readonly string[] = [];
  const exchanges = rest.map((line, i) => {
    let exchange: CassetteExchange;
    try {
      exchange = restored(JSON.parse(line) as StoredExchange, before);
    } catch {
      throw new CassetteError(`${path}: line ${i + 2} is not a cassette line`);
    }
    before = exchange.request.messages;
    return exchange;
  });
  return { path, model: String(header.model), exchanges };
}

/** A run in words, for messages: `fetch-transform-write · none · seed 3`. */
export function describeRun(run: CassetteRun): string {
  return `${run.scenario} · ${run.arm} · seed ${run.seed}${run.member === undefined ? '' : ` (member ${run.member})`}`;
}

/** The cassette folder's index: which model its runs were recorded from. */
export interface CassetteIndex {
  readonly spiralbench_cassettes: number;
  /** The sweep's model label, as results name it (`simulated`, `anthropic:claude-sonnet-4-5`). */
  readonly model: string;
  /** The model id the requests named; null: the loop's default. */
  readonly model_id: string | null;
}

const INDEX_FILE = 'cassette.json';

/** The folder's index, or undefined when the folder has none (it holds no cassette yet). */
export function readCassetteIndex(dir: string): CassetteIndex | undefined {
  const path = join(dir, INDEX_FILE);
  if (!existsSync(path)) return undefined;
  let index: Partial<CassetteIndex>;
  try {
    index = JSON.parse(readFileSync(path, 'utf8')) as Partial<CassetteIndex>;
  } catch {
    throw new CassetteError(`${path}: not JSON`);
  }
  if (index.spiralbench_cassettes !== CASSETTE_VERSION || typeof index.model !== 'string')
    throw new CassetteError(`${path}: not a cassette index of format ${CASSETTE_VERSION}`);
  return { spiralbench_cassettes: CASSETTE_VERSION, model: index.model, model_id: index.model_id ?? null };
}

/** Writes the folder's index (atomically), creating the folder. */
export function writeCassetteIndex(dir: string, model: string, modelId: string | undefined): void {
  mkdirSync(dir, { recursive: true });
  const index: CassetteIndex = { spiralbench_cassettes: CASSETTE_VERSION, model, model_id: modelId ?? null };
  writeFileAtomic(join(dir, INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);
}
