import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelFaultKind } from '../faults/model-faults.js';
import type { Message } from '../model/model-client.js';
import { writeFileAtomic } from '../results/atomic-write.js';
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
  readonly reply?: Message;
  readonly error?: StoredModelError;
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
 * any worker, shard or resumed sweep are written apart, and a small cassette diffs in git.
 */
export function cassettePath(dir: string, run: CassetteRun): string {
  const file = run.member === undefined ? `${run.seed}.jsonl` : `${run.seed}-m${run.member}.jsonl`;
  return join(dir, encodeURIComponent(run.scenario), encodeURIComponent(run.arm), file);
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
  for (const exchange of exchanges) text += `${JSON.stringify(exchange)}\n`;
  writeFileAtomic(path, text);
}

/** Why a run cannot be replayed from the cassette folder: its file is missing or not a cassette of this format. */
export class CassetteError extends Error {
  override readonly name = 'CassetteError';
}

/** Reads a run's cassette; a CassetteError names the file when it is missing or unreadable. */
export function readCassette(dir: string, run: CassetteRun): Cassette {
  const path = cassettePath(dir, run);
  if (!existsSync(path))
    throw new CassetteError(
      `${path}: no cassette for ${describeRun(run)} (record it with run --record ${dir}, the same scenarios, arms and seeds)`,
    );
  const [first, ...rest] = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
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
  const exchanges = rest.map((line, i) => {
    try {
      return JSON.parse(line) as CassetteExchange;
    } catch {
      throw new CassetteError(`${path}: line ${i + 2} is not JSON`);
    }
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
