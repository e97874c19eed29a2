import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ToolHost, ToolTraits } from '../loop/tool-host.js';
import type { CallLimit } from './call-limit.js';
import type { AgentMeter } from './agent-meter.js';

/** A tool in the Chat Completions shape (`tools` of `openai.chat.completions.create`). */
export interface OpenAIFunctionTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

/**
 * The scenario's tools as an agent gets them: definitions for its client, and one way to run them.
 *
 * @example
 * defineAgent(async ({ openai, tools, modelId, system, prompt }) => {
 *   const messages = [{ role: 'system' as const, content: system }, { role: 'user' as const, content: prompt }];
 *   const reply = await openai.chat.completions.create({ model: modelId, messages, tools: tools.openai });
 *   for (const call of reply.choices[0]?.message.tool_calls ?? []) {
 *     if (call.type === 'function' && !tools.traits(call.function.name)?.sideEffecting)
 *       await tools.call(call.function.name, JSON.parse(call.function.arguments));
 *   }
 * });
 */
export interface AgentTools {
  /** The definitions in the Anthropic Messages shape (`tools` of `messages.create`), JSON Schema as given; this run's own copy. */
  readonly anthropic: Tool[];
  /** The same definitions in the Chat Completions shape; this run's own copy. */
  readonly openai: OpenAIFunctionTool[];
  /** Whether a tool writes to the world (never retry it blindly) and may run alongside others; undefined for an unknown name. */
  traits(name: string): ToolTraits | undefined;
  /**
   * Runs one call against the run's world, through the tool's seeded faults, and charges
   * its latency to the run's clock. Resolves to the result text; a failed execution
   * rejects with a plain `Error` whose message is what the tool said, for the agent to
   * word for its model as it likes. The tool's fault stream is drawn when `call` is
   * called, not when it is awaited, so calls started together draw in the order started.
   *
   * @example
   * const text = await tools.call('get_user', { id: 'u_42' });
   */
  call(name: string, input: unknown): Promise<string>;
}

/** The agent's view of a run's tools, every execution going through `meter`. */
export function agentTools(host: ToolHost, meter: AgentMeter, limit?: CallLimit): AgentTools {
  const anthropic = [...host.definitions];
  const openai = host.definitions.map(
    (definition): OpenAIFunctionTool => ({
      type: 'function',
      function: {
        name: definition.name,
        ...(definition.description === undefined ? {} : { description: definition.description }),
        parameters: definition.input_schema as Readonly<Record<string, unknown>>,
      },
    }),
  );
  return Object.freeze({
    anthropic,
    openai,
    traits: (name: string) => host.traits(name),
    // An async body runs synchronously up to its first await: the draw happens at the call.
    call: async (name: string, input: unknown) =>
      limit === undefined ? meter.runTool(name, input) : limit.through('tool', async () => meter.runTool(name, input)),
  });
}
