import type { Rng } from '../random/streams.js';
import type { ToolSpec } from '../scenarios/tool-catalogue.js';
import type { World } from '../scenarios/world.js';
import { faultThresholds, type FaultKind, type FaultProfile, type RateFaultKind } from './fault-profile.js';
import { ToolError } from './tool-errors.js';

/** What one execution of a tool came to, before any classification. */
export type ToolExecution =
  | { readonly kind: 'ok'; readonly content: string; readonly latencyMs: number; readonly fault: FaultKind | null }
  | { readonly kind: 'error'; readonly error: ToolError; readonly latencyMs: number; readonly fault: FaultKind | null };

/**
 * A scenario tool behind seeded faults, for one run (it counts the tool's executions).
 * One draw from the call's own stream decides the fault, so the Nth execution of a tool
 * meets the same fault in every arm.
 */
export class FlakyTool {
  readonly spec: ToolSpec;
  readonly #profile: FaultProfile;
  readonly #thresholds: ReadonlyArray<readonly [RateFaultKind, number]>;
  readonly #unauthorizedAfter: number;
  #executions = 0;

  constructor(spec: ToolSpec, profile: FaultProfile) {
    this.spec = spec;
    this.#profile = profile;
    this.#thresholds = faultThresholds(profile.tools[spec.definition.name] ?? profile.rates);
    this.#unauthorizedAfter = profile.unauthorizedAfter[spec.definition.name] ?? Number.POSITIVE_INFINITY;
  }

  /** The fault a draw of `u` selects, or null. */
  faultFor(u: number): RateFaultKind | null {
    for (const [kind, threshold] of this.#thresholds) if (u < threshold) return kind;
    return null;
  }

  execute(input: Record<string, unknown>, world: World, rng: Rng): ToolExecution {
    const index = this.#executions++;
    // The draw is made even when the credential is revoked, so every execution takes
    // exactly one draw for the rate faults, whatever the schedule says.
    const fault = this.faultFor(rng.next());
    const name = this.spec.definition.name;
    if (index >= this.#unauthorizedAfter) {
      return failed(new ToolError('unauthorized', `${name}: HTTP 401 Unauthorized (the access token is no longer valid)`, { status: 401 }), 80, 'unauthorized');
    }
    const { timeoutMs, retryAfterMs } = this.#profile;
    switch (fault) {
      case 'timeout':
        return failed(new ToolError('timeout', `${name}: request timed out after ${timeoutMs} ms`), timeoutMs, fault);
      case 'connection_refused':
        return failed(new ToolError('connection_refused', `${name}: connect ECONNREFUSED 10.0.0.7:443`), 20, fault);
      case 'rate_limit':
        return failed(
          new ToolError('rate_limited', `${name}: HTTP 429 Too Many Requests (retry-after: ${retryAfterMs / 1000}s)`, {
            status: 429,
            retryAfterMs,
          }),
          50,
          fault,
        );
      case 'server_error':
        return failed(new ToolError('server_error', `${name}: HTTP 503 Service Unavailable`, { status: 503 }), 100, fault);
      default:
        break;
    }
    // The remaining faults let the handler run: the side effect is real.
    let body: string;
    try {
      body = JSON.stringify(this.spec.run(input, world));
    } catch (error) {
      return failed(asToolError(name, error), this.spec.latencyMs, null);
    }
    if (fault === 'partial_write') {
      return failed(
        new ToolError('connection_reset', `${name}: socket hang up (ECONNRESET) after the request was sent`),
        this.spec.latencyMs,
        fault,
      );
    }
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
