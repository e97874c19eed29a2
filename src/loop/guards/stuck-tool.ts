import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';

export const STUCK_TOOL_NAME = 'request_human_help';

export const STUCK_TOOL: Tool = {
  name: STUCK_TOOL_NAME,
  description:
    'Ask a human for help when you are stuck: the same step keeps failing, the data looks wrong, or you do not know how to proceed. Calling this is preferable to making more guesses or repeated tool calls. The run stops and a human picks it up with your summary.',
  input_schema: {
    type: 'object',
    properties: {
      summary: { type: 'string', description: 'What you were doing and where it stands.' },
      attempted_approaches: { type: 'array', items: { type: 'string' }, description: 'What you tried.' },
      specific_question: { type: 'string', description: 'The one question a human should answer.' },
    },
    required: ['summary', 'attempted_approaches', 'specific_question'],
  },
};

/**
 * Offers `request_human_help`, giving the model permission to stop. A call ends the run
 * at once with outcome `escalated` and the call's payload.
 *
 * @example
 * stuckTool()
 */
export function stuckTool(): Guard {
  return {
    name: 'stuck',
    tools: [STUCK_TOOL],
    beforeToolCall(call, ctx) {
      if (call.name !== STUCK_TOOL_NAME) return undefined;
      ctx.emit({ type: 'agent.guardrail.escalated', at: ctx.clock.now(), payload: call.input });
      return { kind: 'stop', outcome: { kind: 'escalated', payload: call.input } };
    },
  };
}

/** The stuck tool in an arm: no settings. */
export const stuckToolGuard = defineGuard({
  name: 'stuck',
  settings: z.strictObject({}),
  events: ['agent.guardrail.escalated'],
  build: () => stuckTool(),
});
