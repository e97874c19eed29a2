import { z } from 'zod';
import { canonicalCall } from '../scenarios/canonical-json.js';

/**
 * One run of an agent as behaviour statistics read it: its turns in order. This module
 * owns the trajectory file format (trajectory-file.ts reads it): JSONL, one run a line.
 *
 * @example
 * {"id":"run-1","turns":[{"calls":[{"name":"get_user","input":{"user_id":"u_1"},"result":{"text":"Error: user not found","is_error":true}}]},{"text":"I could not find the user."}]}
 */
export const toolResultSchema = z.strictObject({
  /** What the agent read back: the result's text blocks joined. */
  text: z.string({ error: 'a string: the text the agent read back' }),
  /** The result was flagged as an error (Anthropic `is_error`, OTel `error.type`). @default false */
  is_error: z.boolean({ error: 'true or false' }).optional(),
});

export const toolCallSchema = z.strictObject({
  name: z.string({ error: 'a string: the tool name' }).min(1, { error: 'a tool name, not an empty string' }),
  input: z.record(z.string(), z.unknown(), { error: 'a JSON object: the arguments the agent sent' }),
  /** Null when the call was never answered (the run ended first). */
  result: z.union([toolResultSchema, z.null()], {
    error: 'an object { text, is_error? }, or null for an unanswered call',
  }),
});

/** A model reply with tool calls, in request order. */
export const callTurnSchema = z.strictObject({
  calls: z.array(toolCallSchema).min(1, { error: 'at least one call (a reply without calls is a text turn)' }),
});

/** A model reply without tool calls: a final answer or, in a conversation, a message to the user. */
export const textTurnSchema = z.strictObject({ text: z.string({ error: 'a string: the reply' }) });

export const turnSchema = z.union([callTurnSchema, textTurnSchema], {
  error: 'a turn: { calls: [...] } or { text: "..." }',
});

export const trajectorySchema = z.strictObject({
  id: z.string({ error: 'a string naming the run' }),
  turns: z.array(turnSchema, { error: 'an array of turns' }),
});

export type ToolResult = z.infer<typeof toolResultSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type CallTurn = z.infer<typeof callTurnSchema>;
export type TextTurn = z.infer<typeof textTurnSchema>;
export type Turn = z.infer<typeof turnSchema>;
export type Trajectory = z.infer<typeof trajectorySchema>;

export function isCallTurn(turn: Turn): turn is CallTurn {
  return 'calls' in turn;
}

/** A call's identity: its name and its arguments as canonical JSON (keys sorted), as the repeat guard fingerprints it. */
export function callFingerprint(call: Pick<ToolCall, 'name' | 'input'>): string {
  return canonicalCall(call.name, call.input);
}
