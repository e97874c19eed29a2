import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { FAULT_KINDS } from '../../faults/fault-profile.js';
import { toolFaults } from '../../faults/flaky-tool.js';
import { ToolError } from '../../faults/tool-errors.js';
import { SUMMARY_INSTRUCTION } from '../../loop/context/compact-transcript.js';
import type { ExecutionContext, LoopContext } from '../../loop/guard.js';
import { errorClassification } from '../../loop/guards/error-classification.js';
import { iterationBudget, MORE_ITERATIONS_TOOL_NAME } from '../../loop/guards/iteration-budget.js';
import { loopMessage } from '../../loop/guards/loop-detection.js';
import { REFLECTION_MESSAGE } from '../../loop/guards/repeat-fingerprint.js';
import { STUCK_TOOL } from '../../loop/guards/stuck-tool.js';
import { SOFT_LIMIT_MESSAGE } from '../../loop/guards/time-limits.js';
import { toolBudget } from '../../loop/guards/tool-budget.js';
import { readArguments } from '../../loop/tool-arguments.js';
import type { Rng } from '../../random/streams.js';
import { TOOL_CATALOGUE } from '../../scenarios/tool-catalogue.js';
import { createWorld } from '../../scenarios/world.js';
import { errorView, viewResult } from './result-view.js';
import {
  asksForSummary,
  offersHelp,
  offersMoreTurns,
  readLoopWarning,
  readRefusal,
  readRetryHint,
  saysMayHaveApplied,
  saysNoMoreTools,
} from './vocabulary.js';

function context(toolCalls: number, iteration = 0): LoopContext {
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

const CALL: ToolUseBlock = { type: 'tool_use', id: 't', name: 'get_user', input: {}, caller: { type: 'direct' } };

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

function classified(error: ToolError, sideEffecting: boolean): string {
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
const REWORDINGS = {
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

const OFFERED = new Set(['get_user', 'search_users', 'transform_record', 'write_result', 'read_result']);

describe('vocabulary: every guard message and its rewordings read alike', () => {
  it('reads a refused repeat, and nothing else, in each rewording', () => {
    for (const text of REWORDINGS.repeat) expect([text, readRefusal(text)]).toEqual([text, 'repeat']);
  });

  it('reads a call refused by the budget in each rewording', () => {
    for (const text of REWORDINGS.limit) expect([text, readRefusal(text)]).toEqual([text, 'limit']);
  });

  it('reads the advice of a permanent and of a transient failure, and a write that may have happened', () => {
    for (const text of REWORDINGS.permanent)
      expect([text, errorView(text)]).toEqual([
        text,
        { kind: 'error', text, hint: 'permanent', mayHaveApplied: false },
      ]);
    for (const text of REWORDINGS.transient)
      expect([text, errorView(text)]).toEqual([
        text,
        { kind: 'error', text, hint: 'transient', mayHaveApplied: false },
      ]);
    for (const text of REWORDINGS.applied)
      expect([text, errorView(text)]).toEqual([text, { kind: 'error', text, hint: 'none', mayHaveApplied: true }]);
  });

  it('reads a loop nudge and a directive naming the tool, in each rewording', () => {
    for (const text of REWORDINGS.nudge)
      expect([text, readLoopWarning(text, OFFERED)]).toEqual([text, { kind: 'nudge' }]);
    for (const text of REWORDINGS.directive)
      expect([text, readLoopWarning(text, OFFERED)]).toEqual([text, { kind: 'directive', tool: 'search_users' }]);
  });

  it('reads a last turn without tools, an offer of more turns, a summary request and a tool that asks a person', () => {
    for (const text of REWORDINGS.final) expect([text, saysNoMoreTools(text)]).toEqual([text, true]);
    for (const text of REWORDINGS.moreTurns)
      expect([text, offersMoreTurns(text, MORE_ITERATIONS_TOOL_NAME)]).toEqual([text, true]);
    for (const text of REWORDINGS.summary) expect([text, asksForSummary(text)]).toEqual([text, true]);
    for (const text of REWORDINGS.help) expect([text, offersHelp('request_human_help', text)]).toEqual([text, true]);
    expect(offersHelp('escalate_to_human', 'Use when you are stuck.')).toBe(true);
  });

  it('reads each kind of message as that kind only', () => {
    const kinds = Object.entries(REWORDINGS);
    for (const [kind, texts] of kinds) {
      for (const text of texts) {
        const readings = {
          refusal: readRefusal(text) !== null,
          retryAdvice: readRetryHint(text) !== 'none',
          applied: saysMayHaveApplied(text),
          loop: readLoopWarning(text, OFFERED) !== null,
          final: saysNoMoreTools(text),
          summary: asksForSummary(text),
        };
        const expected = {
          refusal: kind === 'repeat' || kind === 'limit',
          retryAdvice: kind === 'permanent' || kind === 'transient',
          applied: kind === 'applied',
          loop: kind === 'nudge' || kind === 'directive',
          // A call refused by the budget says the budget is spent too.
          final: kind === 'final' || kind === 'limit',
          summary: kind === 'summary',
        };
        expect([kind, text, readings]).toEqual([kind, text, expected]);
      }
    }
  });
});

/** A stream that always draws 0: the first fault with a rate of 1 is the one drawn. */
const ZERO: Rng = { next: () => 0, chance: () => true, int: () => 0, pick: (items) => items[0]! };

/** Every failure a catalogue tool can report: each injected fault, and its handler's own errors on bad input. */
function everyToolError(): { readonly error: ToolError; readonly sideEffecting: boolean }[] {
  const errors: { error: ToolError; sideEffecting: boolean }[] = [];
  const world = createWorld({ records: {} });
  for (const spec of TOOL_CATALOGUE.values()) {
    const name = spec.definition.name;
    for (const kind of FAULT_KINDS) {
      const faults = toolFaults(spec, {
        rates: kind === 'unauthorized' ? {} : { [kind]: 1 },
        tools: {},
        unauthorizedAfter: kind === 'unauthorized' ? { [name]: 0 } : {},
        retryAfterMs: 2000,
        timeoutMs: 10_000,
      });
      for (const input of [{}, { user_id: 'u_9', order_id: 'o_9', id: 'x', key: 'k', query: 'q', sku: 'S' }]) {
        const execution = faults.execute(0, input, world, ZERO);
        if (execution.kind === 'error') errors.push({ error: execution.error, sideEffecting: spec.sideEffecting });
      }
    }
  }
  return errors;
}

describe('vocabulary: a tool failure is never read as a refusal', () => {
  const errors = everyToolError();
  const kinds = new Set(errors.map(({ error }) => error.code));

  it('covers every fault and the handlers errors', () => {
    for (const kind of ['timeout', 'connection_refused', 'rate_limited', 'server_error', 'unauthorized'] as const)
      expect(kinds).toContain(kind);
    expect(kinds).toContain('invalid_input');
    expect(errors.length).toBeGreaterThan(50);
  });

  it('reads each as an error in any wording: bare, classified, or through the Chat Completions edge', () => {
    for (const { error, sideEffecting } of errors) {
      const bare = `Error: ${error.message}`;
      for (const text of [bare, classified(error, sideEffecting)]) {
        const view = viewResult({ type: 'tool_result', tool_use_id: 't', content: text, is_error: true });
        expect([text, view.kind]).toEqual([text, 'error']);
      }
      // Without the classifier's words, an error gives no advice: the model reads none into it.
      expect([bare, readRetryHint(bare), saysMayHaveApplied(bare)]).toEqual([bare, 'none', false]);
    }
  });

  it('reads arguments that could not be read as an error of the call, not a refusal', () => {
    const call = { ...CALL, input: "{'user_id': 'u_1'}" } as unknown as ToolUseBlock;
    const read = readArguments(call, [], context(0));
    if (read.ok) throw new Error('expected the arguments to be refused');
    expect(viewResult({ type: 'tool_result', tool_use_id: 't', content: read.message, is_error: true }).kind).toBe(
      'error',
    );
  });

  it('reads the refusals the same whether flagged, unflagged, or prefixed by the Chat Completions edge', () => {
    for (const [by, texts] of [
      ['repeat', REWORDINGS.repeat],
      ['limit', REWORDINGS.limit],
    ] as const) {
      for (const text of texts) {
        for (const [content, flagged] of [
          [text, true],
          [text, false],
          [`Error: ${text}`, true],
        ] as const) {
          expect([content, viewResult({ type: 'tool_result', tool_use_id: 't', content, is_error: flagged })]).toEqual([
            content,
            { kind: 'refused', by },
          ]);
        }
      }
    }
  });
});
