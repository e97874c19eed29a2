import type { VirtualClock } from '../clock/virtual-clock.js';
import type { ToolError } from '../tools/tool-error.js';
import { modelLatencyMs } from '../loop/model-latency.js';
import type { AgentEvent } from '../loop/events.js';
import type { ToolHost } from '../loop/tool-host.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { ContentBlock, ContentBlockParam, MessageParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { type ChatRequest, fromChatRequest } from '../model/openai/chat-request.js';
import { fromChatCompletion } from '../model/openai/chat-response.js';
import { MessageThreads } from '../model/simulated/message-threads.js';
import { promptTokens, usageCost, type UsageCounts } from '../model/usage.js';

/** What an agent run counts, in the RunMetrics terms our own loop uses. */
export interface AgentCounts {
  /** Tool calls the model wrote (tool_use blocks, or Chat Completions tool_calls), whether or not the framework ran them. */
  toolCalls: number;
  /** Executions the tools saw. */
  toolExecutions: number;
  /** Model calls the model answered; failed attempts are not counted, as in our loop. */
  modelCalls: number;
  /** Every input token, cached or not, as in our loop. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
}

/**
 * A tool failure as an agent's tool function throws it: the flaky wrapper's error, with
 * its message, so each framework words it for the model its own way (that wording is
 * part of what is being compared). Its name stays `Error`, as a user's tool would throw
 * it: frameworks that print `${error}` must not show the model a harness class name.
 */
export class AgentToolFailure extends Error {
  constructor(readonly error: ToolError) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(error.message);
    Error.stackTraceLimit = limit;
  }
}

/** A `thread` key in a request body, however the client spaced it. */
const THREAD_KEY = /"thread"\s*:/;

/** One answered model call as it crossed the wire: the request's body (when it was text) and the reply's. */
interface Exchange {
  readonly request: string | undefined;
  readonly reply: string;
}

interface WireReply {
  readonly model?: string;
  readonly usage?: {
    readonly input_tokens?: number;
    readonly output_tokens?: number;
    readonly cache_read_input_tokens?: number | null;
    readonly cache_creation_input_tokens?: number | null;
    readonly cache_creation?: Usage['cache_creation'];
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null;
  };
  readonly content?: ReadonlyArray<{ readonly type?: string }>;
  readonly choices?: ReadonlyArray<{ readonly message?: { readonly tool_calls?: readonly unknown[] } }>;
}

/**
 * A reply's usage in the Messages API's terms. Chat Completions counts cached tokens
 * inside `prompt_tokens` (`prompt_tokens_details.cached_tokens`); the Messages API apart.
 */
function anthropicUsage(usage: NonNullable<WireReply['usage']>): UsageCounts {
  if (usage.input_tokens === undefined) {
    const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
    return {
      input_tokens: (usage.prompt_tokens ?? 0) - cached,
      output_tokens: usage.completion_tokens ?? 0,
      cache_read_input_tokens: cached,
    };
  }
  return {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? null,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? null,
    cache_creation: usage.cache_creation ?? null,
  };
}

/**
 * The measuring tape between an agent (a peer framework or a user's own loop) and the
 * run: it sits on the wire (the agent's client calls a metered fetch) and behind the
 * agent's tool calls, so it counts what the model did and what the tools saw without
 * reading the agent's internals. Time is virtual: an answered call costs the same
 * model latency as in our loop, a tool execution its latency, a fault what the fault
 * injector charged.
 */
export class AgentMeter {
  readonly counts: AgentCounts = {
    toolCalls: 0,
    toolExecutions: 0,
    modelCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
  };
  readonly #clock: VirtualClock;
  readonly #tools: ToolHost;
  readonly #onEvent: (event: AgentEvent) => void;
  /** The last answered call's request and reply bodies, as they crossed the wire. */
  #last: Exchange | undefined;
  /** Every answered call on a message thread (the SDK's tool runner sends only what is new on one). */
  readonly #threaded: Exchange[] = [];

  /** `onEvent` hears each execution as our loop's `agent.tool.call` / `agent.tool.result` events (the re-fetch count reads them). */
  constructor(clock: VirtualClock, tools: ToolHost, onEvent: (event: AgentEvent) => void = () => {}) {
    this.#clock = clock;
    this.#tools = tools;
    this.#onEvent = onEvent;
  }

  /** `endpoint` (the simulated model on the wire, Messages or Chat Completions) with every answered call counted. */
  fetch(endpoint: typeof fetch): typeof fetch {
    return async (input, init) => {
      const response = await endpoint(input, init);
      if (response.status !== 200) return response;
      const text = await response.text();
      this.observeCall(typeof init?.body === 'string' ? init.body : undefined, text);
      return new Response(text, { status: response.status, headers: response.headers });
    };
  }

  /**
   * Counts one answered model call from its reply's body (a 200's, Messages or Chat
   * Completions), and keeps the exchange for `conversation`: what `fetch` does for each,
   * for a caller that reads the endpoint's answer itself (serve writes it straight to its
   * agent). `request`: the call's body as the agent sent it, when it was text.
   */
  observeCall(request: string | undefined, text: string): void {
    this.#last = { request, reply: text };
    // A key, not text in a message: inside a JSON string a quote is escaped.
    if (request?.includes('"thread"') && THREAD_KEY.test(request)) this.#threaded.push(this.#last);
    const reply = JSON.parse(text) as WireReply;
    const usage = anthropicUsage(reply.usage ?? {});
    const calls =
      reply.content !== undefined
        ? reply.content.filter((block) => block.type === 'tool_use').length
        : (reply.choices?.[0]?.message?.tool_calls?.length ?? 0);
    this.counts.modelCalls += 1;
    this.counts.inputTokens += promptTokens(usage);
    this.counts.outputTokens += usage.output_tokens;
    this.counts.cacheReadTokens += usage.cache_read_input_tokens ?? 0;
    this.counts.cacheWriteTokens += usage.cache_creation_input_tokens ?? 0;
    this.counts.toolCalls += calls;
    this.counts.costUsd += usageCost(reply.model ?? '', usage);
    this.#clock.sleep(modelLatencyMs(usage));
  }

  /**
   * The agent's conversation as the model last saw it, plus its last reply, in the
   * Messages API's shape (a Chat Completions exchange read as the simulated model reads
   * one): what the agent's own loop held, read off the wire. Undefined before any answered
   * call, or when the last one cannot be read so (a body that was not text).
   */
  conversation(): MessageParam[] | undefined {
    const last = this.#last;
    if (last?.request === undefined) return undefined;
    try {
      const request = JSON.parse(last.request) as { messages?: unknown; thread?: unknown };
      const reply = JSON.parse(last.reply) as WireReply;
      if (reply.content === undefined) {
        const read = fromChatRequest(request as ChatRequest);
        return joinedTurns([
          ...read.messages,
          { role: 'assistant', content: fromChatCompletion(reply as ChatCompletion).content },
        ]);
      }
      if (request.thread !== undefined && this.#threaded.at(-1) !== last) return undefined;
      const messages = request.thread === undefined ? (request.messages as MessageParam[]) : this.#threadMessages();
      return [...messages, { role: 'assistant', content: reply.content as ContentBlock[] }];
    } catch {
      return undefined;
    }
  }

  /** Drops the bodies kept for `conversation`: a run that has ended keeps what it made of them, not them. */
  release(): void {
    this.#last = undefined;
    this.#threaded.length = 0;
  }

  /** The last threaded call's whole conversation, its threads read as the endpoint read them. */
  #threadMessages(): MessageParam[] {
    const threads = new MessageThreads();
    let whole: MessageParam[] = [];
    for (const exchange of this.#threaded) {
      const body = JSON.parse(exchange.request!) as Parameters<MessageThreads['read']>[0];
      const reply = JSON.parse(exchange.reply) as { id: string; content: MessageParam['content'] };
      const read = threads.read(body);
      if (read.kind === 'error') throw new Error(read.message);
      const request = read.kind === 'threaded' ? read.body : { ...body, messages: [...body.messages] };
      threads.hold(request, reply);
      whole = request.messages;
    }
    return whole;
  }

  /**
   * One execution of a scenario tool for the framework: its result text, or a
   * AgentToolFailure thrown the way a user's tool function throws. Called synchronously at
   * the start of the framework's tool function, so the tools' seeded streams are drawn in
   * the order the framework starts its calls. A string for a synchronous tool, a promise
   * of one only for a tool that answers with a promise.
   */
  runTool(name: string, input: unknown): string | Promise<string> {
    this.counts.toolExecutions += 1;
    const id = `peer_exec_${this.counts.toolExecutions}`;
    const args =
      typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    this.#onEvent({ type: 'agent.tool.call', at: this.#clock.now(), id, tool: name, input: args });
    const answer = this.#tools.execute(name, args);
    return answer instanceof Promise ? answer.then((done) => this.#told(id, name, done)) : this.#told(id, name, answer);
  }

  #told(id: string, name: string, execution: ToolExecution): string {
    this.#clock.sleep(execution.latencyMs);
    const ok = execution.kind === 'ok';
    this.#onEvent({
      type: 'agent.tool.result',
      at: this.#clock.now(),
      id,
      tool: name,
      isError: !ok,
      content: ok ? execution.content : execution.error.message,
    });
    if (execution.kind === 'error') throw new AgentToolFailure(execution.error);
    return execution.content;
  }
}

/**
 * Consecutive assistant messages as one turn: a Chat Completions client may send a reply's
 * text and its tool calls as two messages, which were one reply of the model.
 */
function joinedTurns(messages: readonly MessageParam[]): MessageParam[] {
  const blocks = (content: MessageParam['content']): ContentBlockParam[] =>
    typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
  const joined: MessageParam[] = [];
  for (const message of messages) {
    const last = joined.at(-1);
    if (last?.role === 'assistant' && message.role === 'assistant')
      joined[joined.length - 1] = { role: 'assistant', content: [...blocks(last.content), ...blocks(message.content)] };
    else joined.push(message);
  }
  return joined;
}
