import type { Rng } from '../random/streams.js';
import type { ToolSpec } from '../scenarios/tool-catalogue.js';
import type { World } from '../scenarios/world.js';
import { frozenMemo } from '../memo/frozen-memo.js';
import { faultThresholds, type FaultKind, type FaultProfile, type RateFaultKind } from './fault-profile.js';
import { ToolError, type ToolErrorCode } from './tool-errors.js';

/** What one execution of a tool came to, before any classification. */
export type ToolExecution =
  | { readonly kind: 'ok'; readonly content: string; readonly latencyMs: number; readonly fault: FaultKind | null }
  | { readonly kind: 'error'; readonly error: ToolError; readonly latencyMs: number; readonly fault: FaultKind | null };

/**
 * What a tool's faults come to, made once per tool and fault profile (every run of a
 * scenario wraps its tools anew). A fault's failure is the same value every time it is
 * met, so it is made once and frozen: shared, it can never carry one run into another.
 */
interface FaultAnswers {
  readonly thresholds: ReadonlyArray<readonly [RateFaultKind, number]>;
  readonly unauthorizedAfter: number;
  /** The faults that fail before the handler runs, and the 401 of a revoked credential. */
  readonly before: Readonly<Partial<Record<FaultKind, ToolExecution>>>;
  /** partial_write: the handler ran, the answer was lost. */
  readonly lostAnswer: ToolExecution;
  /** A result's body: written once per frozen result. */
  readonly body: (result: object) => string;
}

const answersBySpec = new WeakMap<ToolSpec, WeakMap<FaultProfile, FaultAnswers>>();

function faultAnswers(spec: ToolSpec, profile: FaultProfile): FaultAnswers {
  let byProfile = answersBySpec.get(spec);
  if (byProfile === undefined) {
    byProfile = new WeakMap();
    answersBySpec.set(spec, byProfile);
  }
  let answers = byProfile.get(profile);
  if (answers === undefined) {
    answers = answersOf(spec, profile);
    byProfile.set(profile, answers);
  }
  return answers;
}

function answersOf(spec: ToolSpec, profile: FaultProfile): FaultAnswers {
  const name = spec.definition.name;
  const { timeoutMs, retryAfterMs } = profile;
  const error = (code: ToolErrorCode, message: string, options?: { status?: number; retryAfterMs?: number }): ToolError => Object.freeze(new ToolError(code, message, options));
  const failed = (error: ToolError, latencyMs: number, fault: FaultKind): ToolExecution => Object.freeze({ kind: 'error', error, latencyMs, fault });
  return {
    thresholds: faultThresholds(profile.tools[name] ?? profile.rates),
    unauthorizedAfter: profile.unauthorizedAfter[name] ?? Number.POSITIVE_INFINITY,
    before: {
      timeout: failed(error('timeout', `${name}: request timed out after ${timeoutMs} ms`), timeoutMs, 'timeout'),
      connection_refused: failed(error('connection_refused', `${name}: connect ECONNREFUSED 10.0.0.7:443`), 20, 'connection_refused'),
      rate_limit: failed(error('rate_limited', `${name}: HTTP 429 Too Many Requests (retry-after: ${retryAfterMs / 1000}s)`, { status: 429, retryAfterMs }), 50, 'rate_limit'),
      server_error: failed(error('server_error', `${name}: HTTP 503 Service Unavailable`, { status: 503 }), 100, 'server_error'),
      unauthorized: failed(error('unauthorized', `${name}: HTTP 401 Unauthorized (the access token is no longer valid)`, { status: 401 }), 80, 'unauthorized'),
    },
    lostAnswer: failed(error('connection_reset', `${name}: socket hang up (ECONNRESET) after the request was sent`), spec.latencyMs, 'partial_write'),
    // A frozen result (a starting record, a remembered transform) is written out once; the
    // same text object each time also spares its readers hashing it anew (tryParseJson).
    body: frozenMemo((result) => JSON.stringify(result)),
  };
}

/**
 * A scenario tool behind seeded faults, for one run (it counts the tool's executions).
 * One draw from the call's own stream decides the fault, so the Nth execution of a tool
 * meets the same fault in every arm.
 */
export class FlakyTool {
  readonly spec: ToolSpec;
  readonly #answers: FaultAnswers;
  #executions = 0;

  constructor(spec: ToolSpec, profile: FaultProfile) {
    this.spec = spec;
    this.#answers = faultAnswers(spec, profile);
  }

  /** Executions so far: the index of the next one. */
  get executions(): number {
    return this.#executions;
  }

  /** The fault a draw of `u` selects, or null. */
  faultFor(u: number): RateFaultKind | null {
    for (const [kind, threshold] of this.#answers.thresholds) if (u < threshold) return kind;
    return null;
  }

  execute(input: Record<string, unknown>, world: World, rng: Rng): ToolExecution {
    const index = this.#executions++;
    const answers = this.#answers;
    // The draw is made even when the credential is revoked, so every execution takes
    // exactly one draw for the rate faults, whatever the schedule says.
    const fault = this.faultFor(rng.next());
    if (index >= answers.unauthorizedAfter) return answers.before.unauthorized!;
    const early = fault === null ? undefined : answers.before[fault];
    if (early !== undefined) return early;
    // The remaining faults let the handler run: the side effect is real.
    let body: string;
    try {
      const result = this.spec.run(input, world);
      body = typeof result === 'object' && result !== null ? answers.body(result) : JSON.stringify(result);
    } catch (error) {
      return failed(asToolError(this.spec.definition.name, error), this.spec.latencyMs, null);
    }
    if (fault === 'partial_write') return answers.lostAnswer;
    if (fault === 'malformed_json') {
      // A response cut off mid-body, as a proxy or a crashed upstream leaves it.
      const cut = Math.max(1, Math.floor(body.length * (0.3 + 0.6 * rng.next())));
      return { kind: 'ok', content: body.slice(0, cut), latencyMs: this.spec.latencyMs, fault };
    }
    return { kind: 'ok', content: body, latencyMs: this.spec.latencyMs, fault: null };
  }
}

function failed(error: ToolError, latencyMs: number, fault: FaultKind | null): ToolExecution {
  return { kind: 'error', error, latencyMs, fault };
}

/** A handler that throws something other than a ToolError still yields a tool result. */
function asToolError(name: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError('handler_exception', `Tool '${name}' failed: ${message}`);
}
