import type { ContentBlock, Message, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { stream, type StreamKey } from '../../random/streams.js';
import type { Persona, ScenarioFile } from '../../scenarios/schema.js';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { blockTokens, requestTokens } from '../token-estimate.js';
import { decide } from './policy.js';
import { readTranscript } from './transcript-reader.js';

export interface SimulatedModelOptions {
  readonly persona: Persona;
  readonly plan: ScenarioFile['plan'];
  /** Names the model's own random stream; the turn index completes it. */
  readonly streamKey: StreamKey;
}

function forcedTool(choice: ToolChoice | undefined): string | null {
  return choice?.type === 'tool' ? choice.name : null;
}

/**
 * A seeded stand-in for an LLM agent. `respond` is a pure function of the request, the
 * persona, the task plan and the model's own stream keyed by the turn index (the number
 * of assistant messages already in the request): it reads its progress from the
 * transcript on every call and never sees harness state.
 */
export class SimulatedModel implements ModelClient {
  readonly name = 'simulated';
  readonly #options: SimulatedModelOptions;

  constructor(options: SimulatedModelOptions) {
    this.#options = options;
  }

  respond(request: ModelRequest): Message {
    const { persona, plan, streamKey } = this.#options;
    let turn = 0;
    for (const message of request.messages) if (message.role === 'assistant') turn += 1;
    const rng = stream(streamKey, 'model', turn);
    const offered = new Set((request.tools ?? []).map((tool) => ('name' in tool ? tool.name : '')));
    const action = decide({
      state: readTranscript(request.messages, plan.steps),
      persona,
      plan,
      offered,
      forcedTool: forcedTool(request.tool_choice),
      toolsDisabled: request.tool_choice?.type === 'none' || offered.size === 0,
      rng,
    });

    const content: ContentBlock[] =
      action.kind === 'final'
        ? [{ type: 'text', text: action.text, citations: null }]
        : [
            { type: 'text', text: action.note, citations: null },
            { type: 'tool_use', id: `toolu_sim_${turn}`, name: action.tool, input: action.input, caller: { type: 'direct' } },
          ];
    let outputTokens = 0;
    for (const block of content) outputTokens += blockTokens(block);
    return {
      id: `msg_sim_${streamKey.runSeed}_${turn}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: action.kind === 'final' ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: requestTokens(request),
        output_tokens: outputTokens,
        cache_creation: null,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        inference_geo: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
      },
    };
  }

  async create(request: ModelRequest): Promise<Message> {
    return this.respond(request);
  }
}
