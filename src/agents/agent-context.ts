import { createRequire } from 'node:module';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type OpenAI from 'openai';
import type { TaskClass } from '../loop/define-guard.js';
import type { AgentEvent } from '../loop/events.js';
import type { RunJournal } from '../loop/journal/run-journal.js';
import type { StreamKey } from '../random/streams.js';
import type { AgentTools } from './agent-tools.js';
import type { AgentBaseURLs } from '../run/simulated-endpoint.js';

/**
 * Everything an agent gets for one run. The model is reached only through `fetch` (or the
 * clients made on it), the world only through `tools.call`: that is where the harness
 * counts tokens, model calls, tool calls and virtual time.
 *
 * @example
 * defineAgent(async (ctx: AgentContext<Record<string, never>>) => {
 *   const reply = await ctx.anthropic.messages.create({
 *     model: ctx.modelId, max_tokens: ctx.maxTokens, system: ctx.system, messages: ctx.messages, tools: ctx.tools.anthropic,
 *   });
 *   return reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
 * });
 */
export interface AgentContext<S = Record<string, unknown>> {
  /** An Anthropic client on the run's model, `maxRetries: 0` so no retry hides beneath your loop. Made on first use. */
  readonly anthropic: Anthropic;
  /** An OpenAI client (Chat Completions) on the run's model, `maxRetries: 0`; the `openai` package is loaded on first use. */
  readonly openai: OpenAI;
  /**
   * The run's model over HTTP, metered: `POST <baseURL.anthropic>/v1/messages` or
   * `POST <baseURL.openai>/chat/completions`. Hand it to any other client. Every answered
   * call is counted; failures (the scenario's model faults) come back as real HTTP errors.
   */
  readonly fetch: typeof fetch;
  readonly baseURL: AgentBaseURLs;
  /** A placeholder key to give a client; with a real model, `fetch` puts the real one on requests to the model server only. */
  readonly apiKey: string;
  /** The model id every request should name. */
  readonly modelId: string;
  /** `max_tokens` our own loop asks for; use it to compare like with like. */
  readonly maxTokens: number;
  readonly tools: AgentTools;
  /** The scenario's system prompt. */
  readonly system: string;
  /** The scenario's task, the user turn that starts the run. */
  readonly prompt: string;
  /** Turns the scenario opens with before `prompt` (a resumed conversation); often empty. May hold tool blocks. */
  readonly history: readonly MessageParam[];
  /** `history` then `prompt` as a user turn: the conversation to send first. A fresh copy on each read. */
  readonly messages: MessageParam[];
  /** Aborted when the run is cancelled; pass it on to clients that take one. */
  readonly signal: AbortSignal;
  /** The arm's settings, parsed by the agent's schema with its defaults filled in. */
  readonly settings: S;
  /**
   * What our built-in guards need to know of the run, to host them in your loop
   * (`spiralbench/ai-sdk`, `spiralbench/langchain`): the scenario's task class, the tool
   * budget that class allows, the key of the run's seeded streams (recovery's jitter), its
   * journal, and who started the session (session trust).
   */
  readonly guardRun: {
    readonly taskClass: TaskClass;
    readonly toolBudget: number;
    /** Who started the session: its user, or an untrusted source such as an inbound email (a scenario's `trigger:`). */
    readonly trigger: 'user' | 'untrusted';
    readonly streamKey: StreamKey;
    /** The run's journal, for a hosted journal guard; once asked for, the record holds it as our loop's journal arms' do. */
    readonly journal: () => RunJournal;
  };
  /** The run's time in ms: virtual in a sweep (model and tool latencies, waits charged by `sleep`), real in live mode. */
  now(): number;
  /**
   * Charges a wait your loop chose (a backoff, a retry-after) to the run's clock, so the
   * record's `virtual_ms` holds it as our loop's does; it returns at once in a sweep.
   */
  sleep(ms: number): void;
  /**
   * Tells the harness about a guard event (`agent.tool.retry`, `agent.repeat.blocked`, ...):
   * the record counts it in `events` (and retries in `tool_retries`) as for our own loop.
   */
  emit(event: AgentEvent): void;
}

/** What a context is made of; the clients are made from it on first use. */
export interface AgentContextParts<S> extends Omit<AgentContext<S>, 'anthropic' | 'openai' | 'messages'> {
  /** The Anthropic SDK's client class, already loaded (it is a dependency of spiralbench). */
  readonly Anthropic: typeof Anthropic;
}

const require = createRequire(import.meta.url);

/** The context, with the SDK clients as lazy getters so an agent that uses only `fetch` pays for neither. */
export function agentContext<S>(parts: AgentContextParts<S>): AgentContext<S> {
  const { Anthropic: AnthropicClient, ...rest } = parts;
  let anthropic: Anthropic | undefined;
  let openai: OpenAI | undefined;
  return Object.freeze({
    ...rest,
    get anthropic(): Anthropic {
      anthropic ??= new AnthropicClient({
        apiKey: parts.apiKey,
        baseURL: parts.baseURL.anthropic,
        fetch: parts.fetch,
        maxRetries: 0,
      });
      return anthropic;
    },
    get openai(): OpenAI {
      openai ??= new (loadOpenAI())({
        apiKey: parts.apiKey,
        baseURL: parts.baseURL.openai,
        fetch: parts.fetch,
        maxRetries: 0,
      });
      return openai;
    },
    get messages(): MessageParam[] {
      return [...parts.history, { role: 'user', content: parts.prompt }];
    },
  });
}

/**
 * The `openai` package, an optional dependency: loaded synchronously (a getter cannot
 * wait), so it comes as its CommonJS build; its client behaves the same.
 */
function loadOpenAI(): typeof OpenAI {
  try {
    return (require('openai') as { readonly OpenAI: typeof OpenAI }).OpenAI;
  } catch (error) {
    throw new Error(`context.openai needs the 'openai' package; add it with: npm install openai (${String(error)})`);
  }
}
