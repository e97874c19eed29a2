import { stream } from '../random/streams.js';
import { defineTool, isDefinedTool } from '../tools/define-tool.js';
import { ToolError } from '../tools/tool-error.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { createWorld, type Json, type World } from '../tools/world.js';
import { UserInputError } from '../user-input-error.js';
import { type FaultsInput, faultProfileOf, faultsSchema } from './fault-profile-file.js';
import { toolFaults } from './flaky-tool.js';

/**
 * Where a wrapped tool's draws come from, and what it runs against.
 *
 * @example
 * // The faults get_user met in run 7 of scenario fetch-transform-write, sweep seed 0, call for call.
 * const options: WithFaultsOptions = { seed: 0, scenario: 'fetch-transform-write', runSeed: 7, world };
 */
export interface WithFaultsOptions {
  /**
   * The sweep seed of the streams drawn from: with `scenario` and `runSeed` as a sweep's, the
   * Nth call meets the fault the Nth execution of the tool met in that run.
   * @default 0
   */
  readonly seed?: number;
  /** @default '' */
  readonly scenario?: string;
  /** @default 0 */
  readonly runSeed?: number;
  /**
   * The tool name in fault messages and in the profile's `tools:`; a plain function's own
   * name when left out.
   * @default the tool's or the function's name
   */
  readonly name?: string;
  /**
   * The world every call runs against.
   * @default an empty world of the wrapper's own
   */
  readonly world?: World;
}

/**
 * A tool or function behind seeded faults: each call is the next execution, and draws as such.
 *
 * @example
 * const flaky: FlakyCall<{ id: string }, Json> = withFaults(fetchUser, { rates: { timeout: 0.3 } });
 * const execution = await flaky.execute({ id: 'u_1' }); // { kind: 'error', error, latencyMs, fault: 'timeout' } or { kind: 'ok', ... }
 * flaky.calls; // 1
 */
export interface FlakyCall<I, O> {
  /**
   * Resolves with the result as a caller receives it over the wire (a JSON round trip);
   * rejects with the ToolError of an injected fault or of the tool itself, and with a
   * `malformed_response` ToolError for a body cut off mid-way (as a JSON decoder would).
   */
  (input: I): Promise<O>;
  /** The next call as the harness sees it: the body as text, the virtual latency, the fault met. */
  execute(input: I): Promise<ToolExecution>;
  /** Calls made so far: the next one is execution number `calls`. */
  readonly calls: number;
}

/**
 * Wraps a tool, or any function of (input, world), in a scenario's fault profile: the
 * `faults:` block of a scenario file, with the same kinds, messages and draws. One draw
 * per call from the stream (seed, scenario, runSeed, `tool:<name>`, call number) picks
 * the fault, so the same seed gives the same faults, call for call, in any process.
 *
 * @example
 * ```ts
 * import { withFaults, ToolError } from 'spiralbench';
 *
 * const flaky = withFaults(getUser, { rates: { timeout: 0.2, rate_limit: 0.05 } }, { seed: 7 });
 * try {
 *   const user = await flaky({ user_id: 'u_1042' });
 * } catch (error) {
 *   if (error instanceof ToolError && error.retryable) { ... } // an injected timeout or 429
 * }
 * ```
 */
export function withFaults(
  tool: ToolSpec,
  profile: FaultsInput,
  options?: WithFaultsOptions,
): FlakyCall<Record<string, unknown>, Json>;
export function withFaults<I extends Record<string, unknown>, O extends Json>(
  run: (input: I, world: World) => O | Promise<O>,
  profile: FaultsInput,
  options?: WithFaultsOptions,
): FlakyCall<I, O>;
export function withFaults(
  target: ToolSpec | ((input: Record<string, unknown>, world: World) => Json | Promise<Json>),
  profile: FaultsInput,
  options: WithFaultsOptions = {},
): FlakyCall<Record<string, unknown>, Json> {
  const spec = specOf(target, options.name);
  const name = spec.definition.name;
  const where = `withFaults('${name}')`;
  const parsed = faultsSchema.safeParse(profile);
  if (!parsed.success)
    throw new UserInputError(
      parsed.error.issues.map((issue) => ({
        source: where,
        field: ['profile', ...issue.path.map(String)].join('.'),
        expected: issue.message,
      })),
    );
  let faults: ReturnType<typeof toolFaults>;
  try {
    faults = toolFaults(spec, faultProfileOf(parsed.data));
  } catch (error) {
    if (error instanceof RangeError)
      throw UserInputError.single(where, 'profile.rates', `rates that add up to at most 1 (${error.message})`);
    throw error;
  }
  const key = { sweepSeed: options.seed ?? 0, scenario: options.scenario ?? '', runSeed: options.runSeed ?? 0 };
  const world = options.world ?? createWorld({ records: {} });
  const purpose = `tool:${name}`;
  let calls = 0;
  const execute = async (input: Record<string, unknown>): Promise<ToolExecution> => {
    // Numbered when called, not when done: overlapping calls keep their own draws.
    const index = calls++;
    return await faults.execute(index, input, world, stream(key, purpose, index));
  };
  const call = async (input: Record<string, unknown>): Promise<Json> => {
    const execution = await execute(input);
    if (execution.kind === 'error') throw execution.error;
    try {
      return JSON.parse(execution.content) as Json;
    } catch {
      throw new ToolError('malformed_response', `${name}: the response body is not valid JSON (it was cut off)`);
    }
  };
  return Object.defineProperties(call, {
    execute: { value: execute, enumerable: true },
    calls: { get: () => calls, enumerable: true },
  }) as FlakyCall<Record<string, unknown>, Json>;
}

/** The tool a target stands for: itself, or a plain function made into a read-only tool. */
function specOf(
  target: ToolSpec | ((input: Record<string, unknown>, world: World) => Json | Promise<Json>),
  name: string | undefined,
): ToolSpec {
  if (typeof target !== 'function') {
    if (!isDefinedTool(target) && typeof target?.run !== 'function')
      throw UserInputError.single('withFaults', 'tool', 'a tool (defineTool) or a function (input, world) => result');
    if (name === undefined || name === target.definition.name) return target;
    return { ...target, definition: { ...target.definition, name } };
  }
  const named = name ?? target.name;
  if (named === '')
    throw UserInputError.single(
      'withFaults',
      'options.name',
      'a name for an anonymous function (fault messages and `tools:` use it)',
    );
  return defineTool({
    name: named,
    description: `Calls ${named}.`,
    input_schema: { type: 'object' },
    sideEffecting: false,
    concurrencySafe: true,
    latencyMs: 0,
    run: target,
  });
}
