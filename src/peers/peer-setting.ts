/**
 * A peer framework's settings, as written into results beside the arms' guard settings.
 * Each names the framework's own loop limit and what was done about its hidden retry
 * layers (see docs/peers.md): retries that would sleep on the wall clock are set to 0,
 * and the setting says so.
 */
export type PeerSetting =
  | {
      readonly peer: 'anthropic-tool-runner';
      /** `max_iterations` of `client.beta.messages.toolRunner` (model calls). */
      readonly maxIterations: number;
      /** The Anthropic client's `maxRetries`. */
      readonly clientMaxRetries: number;
    }
  | {
      readonly peer: 'vercel-ai';
      /** `stopWhen: stepCountIs(n)` of `generateText` (model calls). */
      readonly maxSteps: number;
      /** `generateText`'s `maxRetries`. */
      readonly maxRetries: number;
    }
  | {
      readonly peer: 'langchain';
      /** LangGraph's `recursionLimit` (graph super-steps: a model call and a tool batch are one each). */
      readonly recursionLimit: number;
      /** `modelCallLimitMiddleware({ runLimit })`, or null for no such middleware. */
      readonly modelCallLimit: number | null;
      /** `toolCallLimitMiddleware({ runLimit })` over all tools, or null for no such middleware. */
      readonly toolCallLimit: number | null;
      /** `modelRetryMiddleware({ maxRetries })` with no backoff, or null for no such middleware. */
      readonly modelRetries: number | null;
      /** ChatAnthropic's `maxRetries` (its AsyncCaller). */
      readonly clientMaxRetries: number;
    }
  | {
      readonly peer: 'openai-agents';
      /** `run(agent, input, { maxTurns })`. */
      readonly maxTurns: number;
      /** The OpenAI client's `maxRetries`. */
      readonly clientMaxRetries: number;
    };

export type PeerName = PeerSetting['peer'];
