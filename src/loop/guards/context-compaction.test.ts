import type { MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { modelFaultResponse, NO_MODEL_FAULTS, type ModelFaultSource } from '../../faults/model-faults.js';
import { assistantMessage } from '../../model/assistant-message.js';
import { FaultyModel, sdkError } from '../../model/faulty-model.js';
import type { Message, ModelClient, ModelRequest } from '../../model/model-client.js';
import { exactRequestTokens, loadCl100k } from '../../model/exact-token-count.js';
import { isSummaryRequest } from '../../model/simulated/summariser.js';
import { requestTokens } from '../../model/token-estimate.js';
import { BudgetedAgentLoop } from '../budgeted-agent-loop.js';
import type { AgentEvent } from '../events.js';
import type { Guard } from '../guard.js';
import type { RunResult } from '../outcome.js';
import type { ToolHost } from '../tool-host.js';
import { contextCompaction, LADDER_QUESTION, type ContextCompactionOptions } from './context-compaction.js';
import { llmRecovery } from './llm-recovery.js';
import { STUCK_TOOL_NAME, stuckTool } from './stuck-tool.js';
import { CHEAP_MODEL_ID } from '../../model/model-table.js';

const READ: Tool = { name: 'read', input_schema: { type: 'object' } };
const WINDOW = 10_000;
const PROSE = 'We logged air temperature on street segments and related it to canopy cover. ';

/** Each read returns a page of about `pageTokens` tokens; page 3 fails once when `failing`. */
function pages(pageTokens: number, failing = false): ToolHost {
  let failed = false;
  return {
    definitions: [READ],
    traits: () => ({ sideEffecting: false, concurrencySafe: true }),
    execute: (_, input) => {
      if (failing && input['page'] === 3 && !failed) {
        failed = true;
        return {
          kind: 'error',
          error: { code: 'timeout', message: 'timed out' },
          latencyMs: 0,
          fault: 'timeout',
        } as never;
      }
      return {
        kind: 'ok',
        content: `{"page":${String(input['page'])},"text":"${PROSE.repeat(Math.ceil((pageTokens * 4) / PROSE.length)).slice(0, pageTokens * 4)}"}`,
        latencyMs: 0,
        fault: null,
      };
    },
  };
}

/**
 * Reads pages 0..n-1, one per turn, then answers; summary requests get a fixed summary (or
 * fail), a forced stuck tool is called. It keeps every main request with its estimate.
 */
class PageModel implements ModelClient {
  readonly name = 'pages';
  readonly requests: { readonly request: ModelRequest; readonly messages: MessageParam[]; readonly tokens: number }[] =
    [];
  readonly summaries: ModelRequest[] = [];
  readonly #pages: number;
  readonly #summary: 'ok' | 'fail';
  readonly #distinct: number;

  /** Reads pages 0, 1, … up to `pageCount` calls; with `distinct`, page i % distinct (a spiral of re-reads). */
  constructor(pageCount: number, summary: 'ok' | 'fail' = 'ok', distinct = Number.POSITIVE_INFINITY) {
    this.#pages = pageCount;
    this.#summary = summary;
    this.#distinct = distinct;
  }

  async create(request: ModelRequest): Promise<Message> {
    if (isSummaryRequest(request)) {
      this.summaries.push(request);
      if (this.#summary === 'fail')
        throw sdkError(modelFaultResponse('overloaded', request, NO_MODEL_FAULTS, 'req_test'));
      return assistantMessage('msg_summary', request, [
        { type: 'text', text: 'Summary: earlier pages were read.', citations: null },
      ]);
    }
    this.requests.push({ request, messages: [...request.messages], tokens: requestTokens(request) });
    const index = this.requests.length - 1;
    if (request.tool_choice?.type === 'tool') {
      return assistantMessage(`msg_${index}`, request, [
        {
          type: 'tool_use',
          id: `toolu_${index}`,
          name: request.tool_choice.name,
          input: { summary: 's', attempted_approaches: [], specific_question: 'q' },
          caller: { type: 'direct' },
        },
      ]);
    }
    if (index >= this.#pages)
      return assistantMessage(`msg_${index}`, request, [{ type: 'text', text: 'done', citations: null }]);
    return assistantMessage(`msg_${index}`, request, [
      {
        type: 'tool_use',
        id: `toolu_${index}`,
        name: 'read',
        input: { page: index % this.#distinct },
        caller: { type: 'direct' },
      },
    ]);
  }
}

/** Sees each request before compaction does (wrappers nest: a later guard is outside). */
function spy(seen: MessageParam[][]): Guard {
  return {
    name: 'spy',
    aroundModelCall(_, request, next) {
      seen.push([...request.messages]);
      return next(request);
    },
  };
}

interface Run {
  readonly result: RunResult;
  readonly events: AgentEvent[];
  readonly model: PageModel;
  readonly seen: MessageParam[][];
}

async function run(
  model: PageModel,
  host: ToolHost,
  options: Partial<ContextCompactionOptions> = {},
  extra: { client?: ModelClient; inner?: Guard[]; outer?: Guard[] } = {},
): Promise<Run> {
  const events: AgentEvent[] = [];
  const seen: MessageParam[][] = [];
  const guards = [
    ...(extra.inner ?? []),
    contextCompaction({ contextWindow: WINDOW, ...options }),
    spy(seen),
    ...(extra.outer ?? []),
  ];
  const loop = new BudgetedAgentLoop({
    model: extra.client ?? model,
    tools: host,
    guards,
    onEvent: (event) => events.push(event),
  });
  const result = await loop.run('Read the pages.');
  return { result, events, model, seen };
}

const ofType = <T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
const firstText = (message: MessageParam | undefined) =>
  (message?.content as TextBlockParam[] | undefined)?.[0]?.text ?? '';

describe('contextCompaction', () => {
  it('compacts on the first request over 70% of the window, and not before', async () => {
    const { model, events, result } = await run(new PageModel(12), pages(1000));
    const [first] = ofType(events, 'agent.compaction.run');
    expect(first).toMatchObject({ trigger: 'threshold', deep: false, summary: 'model' });
    expect(first!.beforeTokens).toBeGreaterThan(0.7 * WINDOW);
    expect(first!.afterTokens).toBeLessThan(first!.beforeTokens);
    const at = model.requests.findIndex((entry) => isCompacted(entry.messages));
    expect(model.requests.slice(0, at).every((entry) => entry.tokens <= 0.7 * WINDOW)).toBe(true);
    expect(model.requests[at]!.tokens).toBe(first!.afterTokens);
    expect(result.outcome.kind).toBe('completed');
  });

  it('leaves a conversation under the threshold alone', async () => {
    const { events, model } = await run(new PageModel(12), pages(400));
    expect(ofType(events, 'agent.compaction.run')).toEqual([]);
    expect(model.summaries).toEqual([]);
  });

  it('keeps the last 10 messages verbatim (the same objects), from an assistant turn on, after one summary message', async () => {
    const { model, seen } = await run(new PageModel(12), pages(1000));
    const at = model.requests.findIndex((entry) => isCompacted(entry.messages));
    const before = seen[at]!;
    const after = model.requests[at]!.messages;
    const kept = after.slice(1);
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(kept[0]?.role).toBe('assistant');
    kept.forEach((message, i) => expect(message).toBe(before[before.length - kept.length + i]));
    expect(firstText(after[0])).toContain('Summary: earlier pages were read.');
    // The summary was asked of the cheap model, with the older part and tools offered but not usable.
    expect(model.summaries[0]).toMatchObject({
      model: CHEAP_MODEL_ID,
      max_tokens: 512,
      tool_choice: { type: 'none' },
    });
    expect(model.summaries[0]!.messages.length).toBe(before.length - kept.length);
  });

  it('pins the latest successful read as plain text, or nothing when pinning is off', async () => {
    const pinned = await run(new PageModel(12), pages(600, true), { threshold: 0.5 });
    const at = pinned.model.requests.findIndex((entry) => isCompacted(entry.messages));
    const summarised = pinned.model.summaries[0]!.messages;
    const reads = summarised.flatMap((m) =>
      typeof m.content === 'string'
        ? []
        : m.content.flatMap((b) => (b.type === 'tool_use' ? [b.input as { page: number }] : [])),
    );
    // The last read of the summarised part failed: the pin is the read before it.
    expect(reads.at(-1)?.page).toBe(3);
    const text = firstText(pinned.model.requests[at]!.messages[0]);
    expect(text).toContain('Result of read {"page":2} (kept verbatim):\n{"page":2,"text":"We logged');
    expect(text.match(/\(kept verbatim\)/g)).toHaveLength(1);
    expect(ofType(pinned.events, 'agent.compaction.run')[0]?.pinned).toBe(1);
    const unpinned = await run(new PageModel(12), pages(600, true), { threshold: 0.5, pin: false });
    expect(firstText(unpinned.model.requests[at]!.messages[0])).not.toContain('kept verbatim');
  });

  it('falls back to dropping the older part with a notice when the summary call fails, and the work goes on', async () => {
    const { events, model, result } = await run(new PageModel(12, 'fail'), pages(1000));
    const [first] = ofType(events, 'agent.compaction.run');
    expect(first).toMatchObject({ summary: 'truncated', summaryInputTokens: 0 });
    const at = model.requests.findIndex((entry) => isCompacted(entry.messages));
    const kept = model.requests[at]!.messages.length - 1;
    expect(firstText(model.requests[at]!.messages[0])).toMatch(
      new RegExp(`^\\[Context truncated: ${at - kept / 2} earlier turns were dropped`),
    );
    expect(result.outcome.kind).toBe('completed');
  });

  it('climbs the ladder R1, R2, R3 while the context keeps outgrowing it with nothing new, and fires at most 4 rungs', async () => {
    // Re-reading three pages: after a rung, no call brings a result the run had not had.
    const { events, model, result } = await run(new PageModel(30, 'ok', 3), pages(1200));
    const rungs = ofType(events, 'agent.recovery.fired');
    expect(rungs.map((event) => event.rung)).toEqual([1, 2, 3, 3]);
    expect(rungs.map((event) => event.count)).toEqual([1, 2, 3, 4]);
    expect(ofType(events, 'agent.compaction.run').map((event) => event.deep)).toEqual([false, true]);
    // R2 is marked as deep-pruned and keeps only the last 4 messages.
    const deep = model.requests.find((entry) => firstText(entry.messages[0]).includes('deep-pruned'))!;
    expect(deep.messages.length - 1).toBe(4);
    // After the cap the loop runs on, over the threshold, to its own limits (here the model finishes).
    expect(model.requests.filter((entry) => entry.tokens > 0.7 * WINDOW).length).toBeGreaterThan(4);
    expect(result.outcome.kind).toBe('completed');
  });

  it('forces the stuck tool with the ladder question at R3 when the arm offers it', async () => {
    const { model, result } = await run(new PageModel(30, 'ok', 3), pages(1200), {}, { outer: [stuckTool()] });
    const forced = model.requests.find((entry) => entry.request.tool_choice?.type === 'tool')!;
    expect(forced.request.tool_choice).toEqual({ type: 'tool', name: STUCK_TOOL_NAME });
    expect(JSON.stringify(forced.messages.at(-1))).toContain(LADDER_QUESTION.replace(/'/g, "'"));
    expect(result.outcome.kind).toBe('escalated');
  });

  it('starts again at R1 when the last rung is further back than the ladder window', async () => {
    const { events } = await run(new PageModel(30, 'ok', 3), pages(1200), { ladderWindow: 0 });
    expect(ofType(events, 'agent.recovery.fired').map((event) => event.rung)).toEqual([1, 1, 1, 1]);
  });

  it('starts again at R1 when new results arrived since the last rung: a long read is not a spiral', async () => {
    // Thirty different pages: every crossing follows reads the run had not made before.
    const { events, result } = await run(new PageModel(30), pages(1200), {}, { outer: [stuckTool()] });
    expect(ofType(events, 'agent.recovery.fired').map((event) => event.rung)).toEqual([1, 1, 1, 1]);
    expect(result.outcome.kind).toBe('completed');
  });

  it('counts only good results as progress: new pages that all fail, with long errors, climb the ladder', async () => {
    const host = pages(1200);
    const failingAfterThree: ToolHost = {
      ...host,
      execute: (call, input) =>
        (input['page'] as number) < 3
          ? host.execute(call, input)
          : ({
              kind: 'error',
              error: { code: 'upstream', message: `upstream failed: ${PROSE.repeat(60).slice(0, 4800)}` },
              latencyMs: 0,
              fault: null,
            } as never),
    };
    const { events } = await run(new PageModel(30), failingAfterThree);
    expect(ofType(events, 'agent.recovery.fired').map((event) => event.rung)).toEqual([1, 2, 3, 3]);
  });

  it('compacts once on a 413 and resends, adding nothing else to the context', async () => {
    const model = new PageModel(12);
    const client = new FaultyModel(model, { next: () => null }, { contextWindow: () => WINDOW });
    // A threshold past the window: only the API's 413 can set compaction off.
    const { events, result, seen } = await run(model, pages(1000), { threshold: 1.5 }, { client });
    const compactions = ofType(events, 'agent.compaction.run');
    expect(compactions.map((event) => event.trigger)).toEqual(['too_large']);
    expect(compactions[0]!.beforeTokens).toBeGreaterThan(WINDOW);
    const at = model.requests.findIndex((entry) => isCompacted(entry.messages));
    const refused = seen[at]!;
    const resent = model.requests[at]!.messages;
    resent.slice(1).forEach((message, i) => expect(message).toBe(refused[refused.length - (resent.length - 1) + i]));
    expect(result.outcome.kind).toBe('completed');
  });

  it('ends the run failed when the resend after compaction is refused again (the circuit breaker), with LLM recovery not retrying it', async () => {
    const model = new PageModel(12);
    let call = 0;
    const faults: ModelFaultSource = {
      next: (request) =>
        isSummaryRequest(request as ModelRequest) || ++call < 8 ? null : modelFaultResponseFault(request),
    };
    const client = new FaultyModel(model, faults);
    const { events, result } = await run(
      model,
      pages(500),
      { threshold: 1.5 },
      { client, inner: [llmRecovery({ fallbackModel: null })] },
    );
    expect(ofType(events, 'agent.compaction.run')).toHaveLength(1);
    expect(ofType(events, 'agent.model.retry')).toEqual([]);
    expect(call).toBe(9);
    expect(result.outcome).toEqual({
      kind: 'failed',
      error: expect.any(Error),
      reason:
        'model call failed, request too large even after compaction (circuit breaker): ContentTooLargeError (HTTP 413 request_too_large): Request exceeds the maximum allowed number of bytes.',
    });
  });
});

describe('contextCompaction with the exact cl100k count', () => {
  it('measures the request with cl100k_base instead of the estimate when asked', async () => {
    const encoding = await loadCl100k();
    const exact = await run(new PageModel(12), pages(1000), { counter: 'cl100k' });
    const [first] = ofType(exact.events, 'agent.compaction.run');
    const at = exact.model.requests.findIndex((entry) => isCompacted(entry.messages));
    const before = exact.seen[at]!;
    expect(first!.beforeTokens).toBe(
      exactRequestTokens(encoding, { model: 'claude-sonnet-5-5', max_tokens: 1024, tools: [READ], messages: before }),
    );
    expect(first!.beforeTokens).not.toBe(
      requestTokens({ model: 'claude-sonnet-5-5', max_tokens: 1024, tools: [READ], messages: before }),
    );
  });
});

function isCompacted(messages: readonly MessageParam[]): boolean {
  return /Summary: earlier pages|Context truncated/.test(firstText(messages[0]));
}

function modelFaultResponseFault(request: { readonly model: string; readonly messages: readonly MessageParam[] }) {
  return {
    kind: 'request_too_large' as const,
    response: modelFaultResponse('request_too_large', request, NO_MODEL_FAULTS, 'req_test'),
  };
}
