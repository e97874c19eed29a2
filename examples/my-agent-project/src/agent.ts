// Our agent: a hand-written loop over the Anthropic SDK, as we run it in production. The
// harness hands it a client on the run's model and the scenario's tools, both behind
// seeded faults, and judges the world it leaves behind.
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { defineAgent } from 'spiralbench';
import { z } from 'zod';

export default defineAgent({
  name: 'profile-agent',
  settings: z.object({
    /** Model calls before we give up. */
    maxTurns: z.number().int().positive().default(20),
    /** Retries of a failed read-only tool call before the model hears of the failure. */
    readRetries: z.number().int().min(0).default(2),
  }),
  async run({ anthropic, tools, system, messages, modelId, maxTokens, settings }) {
    /** A tool call's result block; a read that failed is tried again first (a write never is: it may have landed). */
    const callTool = async (name: string, input: unknown, id: string): Promise<ToolResultBlockParam> => {
      const retries = tools.traits(name)?.sideEffecting === false ? settings.readRetries : 0;
      for (let attempt = 0; ; attempt++) {
        try {
          return { type: 'tool_result', tool_use_id: id, content: await tools.call(name, input) };
        } catch (error) {
          if (attempt < retries) continue;
          const message = error instanceof Error ? error.message : String(error);
          return { type: 'tool_result', tool_use_id: id, content: `Error: ${message}`, is_error: true };
        }
      }
    };
    for (let turn = 0; turn < settings.maxTurns; turn++) {
      const reply = await anthropic.messages.create({
        model: modelId,
        max_tokens: maxTokens,
        system,
        messages,
        tools: tools.anthropic,
      });
      messages.push({ role: 'assistant', content: reply.content });
      const calls = reply.content.filter((block) => block.type === 'tool_use');
      if (calls.length === 0) return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      const results: ToolResultBlockParam[] = [];
      // One after another, in the order asked: a write must not race the read it depends on.
      for (const call of calls) results.push(await callTool(call.name, call.input, call.id));
      messages.push({ role: 'user', content: results });
    }
    return { outcome: 'max_iterations' };
  },
});
