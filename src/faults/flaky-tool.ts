import type { Rng } from '../random/streams.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import type { Json, World } from '../tools/world.js';
import type { MaybePromise } from '../tools/maybe-promise.js';
import { frozenMemo } from '../memo/frozen-memo.js';
import { faultThresholds, type FaultProfile, type RateFaultKind } from './fault-profile.js';
import type { FaultKind } from '../tools/tool-fault.js';
import { ToolError, type ToolErrorCode } from '../tools/tool-error.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { DataFaultPlan } from './data/index.js';

const faultsBySpec = new WeakMap<ToolSpec, WeakMap<FaultProfile, ToolFaults>>();

/** The tool's faults under a profile, made once per tool and profile (every run of a scenario wraps its tools anew). */
export function toolFaults(spec: ToolSpec, profile: FaultProfile): ToolFaults {
  let byProfile = faultsBySpec.get(spec);
  if (byProfile === undefined) {
    byProfile = new WeakMap();
    faultsBySpec.set(spec, byProfile);
  }
  let faults = byProfile.get(profile);
  if (faults === undefined) {
    faults = new ToolFaults(spec, profile);
    byProfile.set(profile, faults);
  }
  return faults;
}

/**
 * A scenario tool behind seeded faults, with nothing of a run in it: it is told which
 * execution of the tool it serves. One draw from the call's own stream decides the fault,
 * so the Nth execution of a tool meets the same fault in every arm.
 *
 * A fault's failure is the same value every time it is met, so it is made once and
 * frozen: shared by every run, it can never carry one run into another.
 */
export class ToolFaults {
  readonly spec: ToolSpec;
  readonly #thresholds: ReadonlyArray<readonly [RateFaultKind, number]>;
  readonly #unauthorizedAfter: number;
  /** The faults in the data of its successful answers, or null when the profile gives it none. */
  readonly #data: DataFaultPlan | null;
  /** The faults that fail before the handler runs, and the 401 of a revoked credential. */
  readonly #before: Readonly<Partial<Record<FaultKind, ToolExecution>>>;
  /** partial_write: the handler ran, the answer was lost. */
  readonly #lostAnswer: ToolExecution;
  /**
   * A result's body. A frozen result (a starting record, a remembered transform) is
   * written out once; the same text object each time also spares its readers hashing it
   * anew (tryParseJson).
   */
  readonly #body = frozenMemo((result) => JSON.stringify(result));

  constructor(spec: ToolSpec, profile: FaultProfile) {
    const name = spec.definition.name;
    const { timeoutMs, retryAfterMs } = profile;
    const error = (
      code: ToolErrorCode,
      message: string,
      options?: { status?: number; retryAfterMs?: number },
    ): ToolError => Object.freeze(new ToolError(code, message, options));
    const frozenFailure = (error: ToolError, latencyMs: number, fault: FaultKind): ToolExecution =>
      Object.freeze(failed(error, latencyMs, fault));
    this.spec = spec;
    this.#thresholds = faultThresholds(profile.tools[name] ?? profile.rates);
    this.#unauthorizedAfter = profile.unauthorizedAfter[name] ?? Number.POSITIVE_INFINITY;
    const data = profile.data[name];
    const plan = data === undefined ? null : new DataFaultPlan(data);
    this.#data = plan?.armed === true ? plan : null;
    this.#before = {
      timeout: frozenFailure(
        error('timeout', `${name}: request timed out after ${timeoutMs} ms`),
        timeoutMs,
        'timeout',
      ),
      connection_refused: frozenFailure(
        error('connection_refused', `${name}: connect ECONNREFUSED 10.0.0.7:443`),
        20,
        'connection_refused',
      ),
      rate_limit: frozenFailure(
        error('rate_limited', `${name}: HTTP 429 Too Many Requests (retry-after: ${retryAfterMs / 1000}s)`, {
          status: 429,
          retryAfterMs,
        }),
        50,
        'rate_limit',
      ),
      server_error: frozenFailure(
        error('server_error', `${name}: HTTP 503 Service Unavailable`, { status: 503 }),
        100,
        'server_error',
      ),
      unauthorized: frozenFailure(
        error('unauthorized', `${name}: HTTP 401 Unauthorized (the access token is no longer valid)`, { status: 401 }),
        80,
        'unauthorized',
      ),
    };
    this.#lostAnswer = frozenFailure(
      error('connection_reset', `${name}: socket hang up (ECONNRESET) after the request was sent`),
      spec.latencyMs,
      'partial_write',
    );
  }

  /** The fault a draw of `u` selects, or null. */
  faultFor(u: number): RateFaultKind | null {
    for (const [kind, threshold] of this.#thresholds) if (u < threshold) return kind;
    return null;
  }

  /**
   * Execution number `index` (0-based) of the tool in a run. A promise only when the
   * handler returned one; its faults are then applied once it settles, exactly as to a
   * synchronous answer (a rejection is the handler's exception).
   */
  execute(index: number, input: Record<string, unknown>, world: World, rng: Rng): MaybePromise<ToolExecution> {
    // The draw is made even when the credential is revoked, so every execution takes
    // exactly one draw for the rate faults, whatever the schedule says.
    const fault = this.faultFor(rng.next());
    if (index >= this.#unauthorizedAfter) return this.#before.unauthorized!;
    const early = fault === null ? undefined : this.#before[fault];
    if (early !== undefined) return early;
    // The remaining faults let the handler run: the side effect is real.
    let result: MaybePromise<Json>;
    try {
      result = this.spec.run(input, world);
    } catch (error) {
      return this.#thrown(error);
    }
    return result instanceof Promise
      ? result.then(
          (settled) => this.#answer(settled, fault, rng),
          (error: unknown) => this.#thrown(error),
        )
      : this.#answer(result, fault, rng);
  }

  /** The handler's exception as a tool failure. */
  #thrown(error: unknown): ToolExecution {
    return failed(asToolError(this.spec.definition.name, error), this.spec.latencyMs, null);
  }

  /** The handler's result as the wire delivers it under the drawn fault (the handler has run). */
  #answer(result: Json, fault: RateFaultKind | null, rng: Rng): ToolExecution {
    const { latencyMs } = this.spec;
    let body: string | undefined;
    try {
      body = typeof result === 'object' && result !== null ? this.#body(result) : JSON.stringify(result);
    } catch (error) {
      // A BigInt or a cycle: the handler's answer cannot go over the wire.
      return this.#thrown(error);
    }
    // undefined, a function or a symbol: a handler that forgot to return (or to throw notFound).
    if (body === undefined) return this.#thrown(new Error(`returned no JSON value (${typeof result})`));
    if (fault === 'partial_write') return this.#lostAnswer;
    if (fault === 'malformed_json') {
      // A response cut off mid-body, as a proxy or a crashed upstream leaves it.
      const cut = Math.max(1, Math.floor(body.length * (0.3 + 0.6 * rng.next())));
      return { kind: 'ok', content: body.slice(0, cut), latencyMs, fault };
    }
    if (this.#data !== null) {
      // The answer arrived whole; its content may still be wrong. The draw comes after the
      // transport's, from the same call's stream, so a tool without data faults draws as before.
      const drawn = this.#data.apply(result, rng.next(), rng);
      const content = drawn.fault === null ? body : JSON.stringify(drawn.answer);
      // A fault that changed nothing (a rename of a field the answer lacks) was not met.
      if (content !== body) return { kind: 'ok', content, latencyMs, fault: drawn.fault };
    }
    return { kind: 'ok', content: body, latencyMs, fault: null };
  }
}

/** A scenario tool behind seeded faults, for one run: it counts the tool's executions. */
export class FlakyTool {
  readonly spec: ToolSpec;
  readonly #faults: ToolFaults;
  #executions = 0;

  constructor(spec: ToolSpec, profile: FaultProfile) {
    this.spec = spec;
    this.#faults = toolFaults(spec, profile);
  }

  /** The fault a draw of `u` selects, or null. */
  faultFor(u: number): RateFaultKind | null {
    return this.#faults.faultFor(u);
  }

  execute(input: Record<string, unknown>, world: World, rng: Rng): MaybePromise<ToolExecution> {
    return this.#faults.execute(this.#executions++, input, world, rng);
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
