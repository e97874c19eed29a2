import { z } from 'zod';
import type { AgentContext } from './agent-context.js';
import type { AgentReturn } from './agent-result.js';

/** The settings schema of an agent that takes none. */
const NO_SETTINGS = z.object({});

/** Settings as an agent declares them: a zod object whose fields all have defaults, so `{}` parses. */
export type AgentSettingsSchema = z.ZodObject;

/**
 * An agent as spiralbench runs it. Made by `defineAgent`, frozen, and recognised by its
 * `kind`, never by class: a user's module may load its own copy of spiralbench.
 *
 * @example
 * const mine: AgentDefinition = defineAgent({ name: 'mine', run: async ({ tools }) => tools.call('get_user', { id: 'u_1' }) });
 * await runAgentSweep({ agent: mine, scenarios: ['fetch-transform-write'], seeds: 20 });
 */
export interface AgentDefinition<S extends Record<string, unknown> = Record<string, unknown>> {
  readonly kind: 'spiralbench.agent';
  /** The arm's name is `agent:<name>` (`agent:<module file name>` without one) unless an arms file names it. */
  readonly name: string | undefined;
  /**
   * The API whose edge the agent calls: a scenario's reply faults (malformed tool
   * arguments) live on the `openai-chat` edge only, so a sweep gives a scenario on that
   * API only to agents that speak it. It also labels the record's model.
   * @default 'anthropic'
   */
  readonly api: 'anthropic' | 'openai-chat';
  /** Parses the arm's settings (from an arms file) and fills in the defaults. */
  readonly settings: AgentSettingsSchema;
  run(context: AgentContext<S>): Promise<AgentReturn>;
}

/** `defineAgent`'s long form. */
export interface AgentOptions<Schema extends AgentSettingsSchema> {
  /** @default the module file's name */
  readonly name?: string;
  /** @default 'anthropic' */
  readonly api?: 'anthropic' | 'openai-chat';
  /** @default z.object({}) */
  readonly settings?: Schema;
  run(context: AgentContext<z.output<Schema>>): Promise<AgentReturn> | AgentReturn;
}

/**
 * Your own agent loop as a spiralbench arm. The harness hands `run` clients wired to the
 * run's model (behind the scenario's seeded model faults) and the scenario's tools (with
 * their seeded tool faults), meters both, judges the world and writes the same RunRecord
 * as a built-in arm. Export it from a module and pass the path to `--agent`.
 *
 * @example
 * export default defineAgent(async ({ anthropic, tools, system, messages, modelId, maxTokens }) => {
 *   const history = [...messages];
 *   for (;;) {
 *     const reply = await anthropic.messages.create({ model: modelId, max_tokens: maxTokens, system, messages: history, tools: tools.anthropic });
 *     history.push({ role: 'assistant', content: reply.content });
 *     const calls = reply.content.filter((block) => block.type === 'tool_use');
 *     if (calls.length === 0) return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
 *     const results: ToolResultBlockParam[] = [];
 *     for (const call of calls) {
 *       try { results.push({ type: 'tool_result', tool_use_id: call.id, content: await tools.call(call.name, call.input) }); }
 *       catch (error) { results.push({ type: 'tool_result', tool_use_id: call.id, content: String(error), is_error: true }); }
 *     }
 *     history.push({ role: 'user', content: results });
 *   }
 * });
 */
export function defineAgent(
  run: (context: AgentContext<Record<string, never>>) => Promise<AgentReturn> | AgentReturn,
): AgentDefinition<Record<string, never>>;
export function defineAgent<Schema extends AgentSettingsSchema>(
  options: AgentOptions<Schema>,
): AgentDefinition<z.output<Schema>>;
export function defineAgent(
  input:
    | ((context: AgentContext<Record<string, never>>) => Promise<AgentReturn> | AgentReturn)
    | AgentOptions<AgentSettingsSchema>,
): AgentDefinition {
  const options = typeof input === 'function' ? { run: input } : input;
  // Said when the module loads, not as a TypeError in every run (as defineTool and defineGuard do).
  if (typeof options !== 'object' || options === null || typeof options.run !== 'function')
    throw new TypeError(
      `defineAgent: a run function, as defineAgent(async (context) => ...) or defineAgent({ name, run }); got ${typeof options === 'object' && options !== null ? `run: ${typeof options.run}` : typeof options}`,
    );
  // A name becomes the arm agent:<name>, printed in tables and commands: some text, on one line.
  if (options.name !== undefined && (typeof options.name !== 'string' || !/^[^\u0000-\u001f]+$/.test(options.name)))
    throw new TypeError(
      `defineAgent: name ${JSON.stringify(options.name) ?? String(options.name)} is not some text on one line (it names the arm agent:<name>)`,
    );
  const run = options.run as (context: AgentContext) => Promise<AgentReturn> | AgentReturn;
  return Object.freeze({
    kind: 'spiralbench.agent',
    name: options.name,
    api: options.api ?? 'anthropic',
    // Strict, as a guard's are: a misspelt setting in an arms file is an error, not a silent default.
    settings: (options.settings ?? NO_SETTINGS).strict(),
    // Awaited here so a synchronous throw becomes a rejection like any other failure.
    run: async (context: AgentContext) => run(context),
  }) as AgentDefinition;
}

/**
 * Whether `value` is an agent definition, by shape: it may come from another copy of spiralbench.
 *
 * @example
 * isAgentDefinition(defineAgent(async () => 'done')) // true
 */
export function isAgentDefinition(value: unknown): value is AgentDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof AgentDefinition, unknown>>;
  return (
    candidate.kind === 'spiralbench.agent' &&
    (candidate.name === undefined || typeof candidate.name === 'string') &&
    typeof candidate.run === 'function' &&
    typeof candidate.settings === 'object' &&
    candidate.settings !== null &&
    typeof (candidate.settings as { safeParse?: unknown }).safeParse === 'function'
  );
}
