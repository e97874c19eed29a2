import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { ToolError } from '../../tools/tool-error.js';
import { SUMMARY_INSTRUCTION } from '../../loop/context/compact-transcript.js';
import type { ExecutionContext, LoopContext } from '../../loop/guard.js';
import { errorClassification } from '../../loop/guards/error-classification.js';
import { iterationBudget, MORE_ITERATIONS_TOOL_NAME } from '../../loop/guards/iteration-budget.js';
import { loopMessage } from '../../loop/guards/loop-detection.js';
import { REFLECTION_MESSAGE } from '../../loop/guards/repeat-fingerprint.js';
import { STUCK_TOOL } from '../../loop/guards/stuck-tool.js';
import { SOFT_LIMIT_MESSAGE } from '../../loop/guards/time-limits.js';
import { toolBudget } from '../../loop/guards/tool-budget.js';

/**
 * The words of every guard the simulated model reacts to, as the guards say them, each
 * followed by rewordings a guard author might write instead. The model must read every
 * rewording as it reads the guard's own words (vocabulary.test.ts) and do the same next
 * (paraphrase.test.ts).
 */

export function context(toolCalls: number, iteration = 0): LoopContext {
  return {
    clock: new VirtualClock(),
    emit: () => {},
    toolCalls,
    toolExecutions: toolCalls,
    toolTraits: () => undefined,
    iteration,
    messages: [],
  };
}

export const CALL: ToolUseBlock = {
  type: 'tool_use',
  id: 't',
  name: 'get_user',
  input: {},
  caller: { type: 'direct' },
};

/** The guards' own words, as they say them. */
const budget = toolBudget({ maxToolCalls: 15 });
const budgetRefusal = budget.beforeToolCall!(CALL, context(15));
const budgetFinal = budget.beforeModelCall!(context(15));
const moreTurns = iterationBudget({ initial: 10, cap: 25 }).afterToolBatch!(context(9, 9));
const THRASH = { kind: 'identical', tool: 'search_users', count: 3, window: 6 } as const;

function said(decision: { readonly kind: string; readonly content?: string; readonly message?: string } | undefined) {
  const text = decision?.content ?? decision?.message;
  if (text === undefined) throw new Error('the guard said nothing');
  return text;
}

export function classified(error: ToolError, sideEffecting: boolean): string {
  const ctx: ExecutionContext = {
    ...context(1),
    call: CALL,
    traits: { sideEffecting, concurrencySafe: !sideEffecting },
  };
  return errorClassification().describeError!(error, ctx);
}

/**
 * Each guard message and three rewordings a guard author might write. Every rewording must
 * be read exactly as the guard's own words are.
 */
export const REWORDINGS = {
  repeat: [
    REFLECTION_MESSAGE,
    'This call is identical to your previous one, so it was not executed. Running it again would return the same result; try something else.',
    'Duplicate tool call skipped: same tool, same arguments as the last call. Consider another approach or ask for help.',
    'Blocked: you already made exactly this call. Repeating it will not change the outcome — change the arguments, use another tool, or say you are stuck.',
    'Not executed — this repeats the previous call verbatim (same tool and arguments). The result would be the same as before.',
  ],
  limit: [
    said(budgetRefusal),
    "Skipped: no tool calls remain in this run's budget of 15.",
    'This call was not executed because the tool-call limit of 15 has been reached.',
    'Refused — budget exhausted (15 tool calls allowed).',
  ],
  permanent: [
    classified(new ToolError('not_found', "no user with id 'u_9'", { status: 404 }), false),
    "Error: Not found (HTTP 404): no user with id 'u_9'. This will not succeed on retry; change the arguments.",
    "Error: Not found (HTTP 404): no user with id 'u_9'. Retrying this exact call is pointless — it will fail again.",
    "Error: Not found (HTTP 404): no user with id 'u_9'. A non-retryable error: don't send the same request again.",
  ],
  transient: [
    classified(new ToolError('timeout', 'get_user: request timed out after 10000 ms'), false),
    'Error: Network timeout: get_user: request timed out after 10000 ms. This is a temporary problem; trying again may work.',
    'Error: Network timeout: get_user: request timed out after 10000 ms. Transient error — safe to retry.',
    'Error: Network timeout: get_user: request timed out after 10000 ms. A retry will probably succeed.',
  ],
  applied: [
    classified(new ToolError('timeout', 'write_result: request timed out after 10000 ms'), true),
    'Error: Network timeout: write_result: request timed out after 10000 ms. The write might already have gone through, so verify before trying again.',
    'Error: Network timeout: write_result: request timed out after 10000 ms. It is unknown whether the change was made; check the current state before repeating it.',
    'Error: Network timeout: write_result: request timed out after 10000 ms. The request may have succeeded on the server. Confirm before you retry.',
  ],
  nudge: [
    loopMessage(1, THRASH),
    'You seem to be going in circles: search_users was called 3 times in your last 6 calls. Consider a different strategy.',
    'Warning: repeated calls to search_users are not making progress. Try another tool or another way in.',
    'Heads up — the last few calls keep hitting search_users without result. Rethink your approach.',
  ],
  directive: [
    loopMessage(2, THRASH),
    'Do not call search_users again — it has not helped, even after a warning. Use a different tool, or explain why none will work.',
    'search_users is now off-limits: it keeps failing. Pick another tool or approach.',
    'No more calls to search_users, please: it has failed repeatedly since the last warning. Choose something else.',
  ],
  final: [
    said(budgetFinal),
    SOFT_LIMIT_MESSAGE,
    'You have used all 15 tool calls allowed for this task. No more tools: write your final answer from what you know.',
    'The tool-call budget (15) is spent. Please reply with a final summary of your findings.',
    'Budget reached: 15 of 15 tool calls. Give your final answer now without calling tools.',
  ],
  moreTurns: [
    said(moreTurns),
    `Only 2 turns remain. Use ${MORE_ITERATIONS_TOOL_NAME} to ask for more if the task is unfinished.`,
    `Running low: 2 model calls left. ${MORE_ITERATIONS_TOOL_NAME} grants extra turns.`,
    `2 calls to go before this run stops; ask via ${MORE_ITERATIONS_TOOL_NAME} for more time.`,
  ],
  summary: [
    SUMMARY_INSTRUCTION,
    'Write a summary of the conversation so far, covering the task, every tool call with its arguments and result, and the facts established. Output only the summary.',
    'Please condense everything above into a summary another agent could continue from: the task, the tool calls and what they returned.',
    'Summarise this transcript: the task, each tool call with its arguments and outcome, and what the successful results showed.',
  ],
  help: [
    STUCK_TOOL.description ?? '',
    'Hand the task to a person when you cannot make progress; better than guessing.',
    'Escalate to a human operator with a summary of what you tried and one question.',
    'Request assistance from a human when you are stuck.',
  ],
} as const;
