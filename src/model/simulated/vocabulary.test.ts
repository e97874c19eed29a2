import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { answeredNow } from '../../tools/answered-now.test-helpers.js';
import { FAULT_KINDS } from '../../tools/tool-fault.js';
import { toolFaults } from '../../faults/flaky-tool.js';
import type { ToolError } from '../../tools/tool-error.js';
import { MORE_ITERATIONS_TOOL_NAME } from '../../loop/guards/iteration-budget.js';
import { readArguments } from '../../loop/tool-arguments.js';
import type { Rng } from '../../random/streams.js';
import { TOOL_CATALOGUE } from '../../scenarios/tool-catalogue.js';
import { createWorld } from '../../tools/world.js';
import { CALL, classified, context, REWORDINGS } from './guard-words.test-helpers.js';
import { errorView, viewResult } from './result-view.js';
import {
  readErrorStatus,
  asksForSummary,
  offersHelp,
  offersMoreTurns,
  readLoopWarning,
  readRefusal,
  readRetryHint,
  saysMayHaveApplied,
  saysNoMoreTools,
} from './vocabulary.js';

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
      expect([text, errorView(text)]).toMatchObject([
        text,
        { kind: 'error', hint: 'permanent', mayHaveApplied: false },
      ]);
    for (const text of REWORDINGS.transient)
      expect([text, errorView(text)]).toMatchObject([
        text,
        { kind: 'error', hint: 'transient', mayHaveApplied: false },
      ]);
    for (const text of REWORDINGS.applied)
      expect([text, errorView(text)]).toMatchObject([text, { kind: 'error', hint: 'none', mayHaveApplied: true }]);
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
        data: {},
      });
      for (const input of [{}, { user_id: 'u_9', order_id: 'o_9', id: 'x', key: 'k', query: 'q', sku: 'S' }]) {
        const execution = answeredNow(faults.execute(0, input, world, ZERO));
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

describe('vocabulary: a bare error read for what it is, in any wording', () => {
  // What HTTP APIs and tools answer, without advice: the status line, or only its words.
  const BARE = {
    permanent: [
      'Error: get_order: HTTP 401 Unauthorized (the access token is no longer valid)',
      'Error: 401: credentials revoked',
      'Error: the access token is no longer valid',
      'Error: permission denied for order o_3103',
      "Error: no user with id 'u_1042'",
      'Error: user not found',
      'Error: order o_9 does not exist',
      'Error: HTTP 400 Bad Request: "value" must be an object',
      'Error: validation failed: key is required',
      'Error: status 403 Forbidden',
      'Error: status: 422 Unprocessable Entity',
    ],
    transient: [
      'Error: get_user: request timed out after 10000 ms',
      'Error: get_user: HTTP 429 Too Many Requests (retry-after: 2s)',
      'Error: rate limited, slow down',
      'Error: get_user: HTTP 503 Service Unavailable',
      'Error: connect ECONNREFUSED 10.0.0.7:443',
      'Error: socket hang up (ECONNRESET) after the request was sent',
      'Error: the service is overloaded, try again later',
      'Error: upstream timeout',
    ],
    unknown: ["Error: Tool 'x' failed: boom", 'Error: something went wrong', 'Error: unexpected end of stream'],
  } as const;

  it('reads a client error as permanent, a passing one as transient, and neither as unknown', () => {
    for (const [status, texts] of Object.entries(BARE))
      for (const text of texts) expect([text, readErrorStatus(text)]).toEqual([text, status]);
  });

  it('reads the advice over the status: advice is what the harness adds', () => {
    const advised = errorView(
      'Error: Permanent failure: Unauthorized (HTTP 401): the token is no longer valid. Do not retry with the same arguments.',
    );
    expect(advised).toMatchObject({ hint: 'permanent', status: 'permanent' });
  });
});
