import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';

/**
 * A guard's own tool (`request_human_help`, `request_more_iterations`, the journal's) as a
 * LangChain tool, so createAgent offers it and routes its calls through `wrapToolCall`,
 * where the guard answers it. Its function runs only if no guard answered the call, which
 * says so to the model. `endsRun`: LangChain's `returnDirect`, the framework's own way to
 * end a run at a tool (the stuck tool's escalation).
 *
 * @example
 * guardTool(STUCK_TOOL, true) // offered as request_human_help; a call ends the run after its answer
 */
export function guardTool(definition: Tool, endsRun: boolean): StructuredToolInterface {
  return tool(async () => `Error: no guard answered ${definition.name}.`, {
    name: definition.name,
    description: definition.description ?? definition.name,
    schema: definition.input_schema as Record<string, unknown>,
    returnDirect: endsRun,
  }) as StructuredToolInterface;
}
