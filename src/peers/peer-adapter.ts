import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { RunOutcome } from '../loop/outcome.js';
import type { ToolHost } from '../loop/tool-host.js';
import type { Scenario } from '../scenarios/loader.js';
import type { PeerMeter } from './peer-meter.js';
import type { PeerSetting } from './peer-setting.js';
import { contentText } from '../model/content-text.js';

/** What every adapter is handed for one run; everything seeded is already in place. */
export interface PeerRunInput {
  readonly scenario: Scenario;
  /** The scenario's tools (definitions); run them through `meter.runTool`. */
  readonly tools: ToolHost;
  readonly meter: PeerMeter;
  /** The model id every request names. */
  readonly modelId: string;
  /** `max_tokens` of every request, as in our loop. */
  readonly maxTokens: number;
  /** The simulated model as `POST /v1/messages`, metered: for an Anthropic client's `fetch`. */
  readonly messagesFetch: typeof fetch;
  /** The simulated model as `POST /v1/chat/completions`, metered: for an OpenAI client's `fetch`. */
  readonly chatFetch: typeof fetch;
  /** Base URLs nothing listens on: the fetches above answer every request. */
  readonly anthropicBaseURL: string;
  readonly openaiBaseURL: string;
}

/** A peer framework's loop, driven to the end of one run. Errors it raises become a `failed` outcome. */
export interface PeerAdapter<S extends PeerSetting = PeerSetting> {
  run(setting: S, input: PeerRunInput): Promise<RunOutcome>;
}

/** The scenario's history and prompt as Messages: what every adapter starts the conversation with. */
export function openingMessages(scenario: Scenario): MessageParam[] {
  return [...(scenario.history as MessageParam[]), { role: 'user', content: scenario.prompt }];
}

/** A history of plain text turns only: the adapters that rebuild it in their own message types take no tool blocks. */
export function textOnlyHistory(
  scenario: Scenario,
): ReadonlyArray<{ readonly role: MessageParam['role']; readonly text: string }> | null {
  const turns: Array<{ role: MessageParam['role']; text: string }> = [];
  for (const message of scenario.history as MessageParam[]) {
    if (typeof message.content === 'string') turns.push({ role: message.role, text: message.content });
    else if (message.content.every((block) => block.type === 'text'))
      turns.push({ role: message.role, text: contentText(message.content) });
    else return null;
  }
  return turns;
}

/** The text of an error for a `failed` outcome's reason, on one line. */
export function errorReason(peer: string, error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${peer}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}

/**
 * The Messages endpoint for a client whose response schema takes a text block's
 * `citations` only as an array or absent (@ai-sdk/anthropic): the simulated endpoint
 * writes `citations: null`, as the Anthropic SDK's types allow, and the API itself leaves
 * the field out when there are none. Only that field is touched.
 */
export function withoutNullCitations(endpoint: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await endpoint(input, init);
    if (response.status !== 200) return response;
    const body = (await response.json()) as { content?: Array<Record<string, unknown>> };
    for (const block of body.content ?? []) if (block['citations'] === null) delete block['citations'];
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
}
