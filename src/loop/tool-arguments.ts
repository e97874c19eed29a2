import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ArgumentParse, Guard, LoopContext } from './guard.js';

/**
 * What a loop without an argument-repair guard does with arguments sent as text: one
 * strict JSON.parse, and anything but an object is a failure the model is told about.
 */
export function parseStrictly(raw: string): ArgumentParse {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { ok: true, value: value as Record<string, unknown>, strategy: 'direct' };
    return { ok: false, reason: 'the arguments are JSON but not an object' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export type ReadArguments =
  | { readonly ok: true; readonly call: ToolUseBlock }
  | { readonly ok: false; readonly message: string };

/**
 * The call with its arguments as an object. Arguments that arrived as an object pass
 * through; text is read by the first guard that parses arguments, or strictly. A text
 * that cannot be read is never run with `{}`: the model gets an error it can act on.
 */
export function readArguments(call: ToolUseBlock, guards: readonly Guard[], ctx: LoopContext): ReadArguments {
  const raw = call.input;
  if (typeof raw !== 'string') return { ok: true, call };
  const parser = guards.find((guard) => guard.parseArguments !== undefined);
  const parse = parser?.parseArguments?.(raw, call, ctx) ?? parseStrictly(raw);
  ctx.emit({
    type: 'agent.tool.arguments',
    at: ctx.clock.now(),
    tool: call.name,
    strategy: parse.ok ? parse.strategy : 'failed',
  });
  if (parse.ok) return { ok: true, call: { ...call, input: parse.value } };
  return {
    ok: false,
    message: `Error: the arguments of this ${call.name} call are not valid JSON (${parse.reason}). The call was not run. Send the call again with its arguments as one JSON object.`,
  };
}
