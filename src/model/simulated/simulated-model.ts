import type { ContentBlock, Message, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { stream, type StreamKey } from '../../random/streams.js';
import type { Persona, ScenarioFile } from '../../scenarios/schema.js';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { assistantMessage } from '../assistant-message.js';
import { cutAtOutputLimit } from '../output-limit.js';
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
            ...(action.more ?? []).map((call, i): ContentBlock => ({ type: 'tool_use', id: `toolu_sim_${turn}_${i + 1}`, name: call.tool, input: call.input, caller: { type: 'direct' } })),
          ];
    // The API stops writing at max_tokens, whatever the model meant to say.
    return cutAtOutputLimit(assistantMessage(`msg_sim_${streamKey.runSeed}_${turn}`, request, content), request.max_tokens);
  }

  async create(request: ModelRequest): Promise<Message> {
    return this.respond(request);
  }
}
