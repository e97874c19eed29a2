import type {
  ContentBlock,
  Message,
  MessageParam,
  ToolChoice,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import { stream, type StreamKey } from '../../random/streams.js';
import type { ScenarioFile } from '../../scenarios/schema.js';
import type { Persona } from '../../scenarios/persona-schema.js';
import type { ModelClient, ModelRequest, RawMessageStreamEvent } from '../model-client.js';
import { assistantMessage } from '../assistant-message.js';
import { messageStreamEvents } from '../streaming/stream-events.js';
import { eventStream } from '../streaming/stream-of.js';
import { cutAtOutputLimit } from '../output-limit.js';
import { memoByToolList } from '../tool-list-memo.js';
import { decide } from './policy.js';
import { PrefixInterner } from './prefix-interner.js';
import { isSummaryRequest, summaryText } from './summariser.js';
import { readRecollection } from './summary-text.js';
import { readTranscript } from './transcript-reader.js';
import { offersHelp, saysToolOutputIsData } from './vocabulary.js';
import { textMemo } from '../../memo/text-memo.js';

export interface SimulatedModelOptions {
  readonly persona: Persona;
  readonly plan: ScenarioFile['plan'];
  /** Names the model's own random stream; the turn index completes it. */
  readonly streamKey: StreamKey;
}

/**
 * The turn index: assistant messages in the request, plus the turns a summary (or a notice
 * of dropped turns) at its start says it replaced, so a compacted conversation goes on
 * with fresh draws and fresh tool_use ids.
 */
function turnIndex(request: ModelRequest): number {
  let turn = 0;
  for (const message of request.messages) if (message.role === 'assistant') turn += 1;
  const first = request.messages[0];
  if (first?.role !== 'user') return turn;
  let text = '';
  if (typeof first.content === 'string') text = first.content;
  else for (const block of first.content) if (block.type === 'text') text += `${block.text}\n`;
  return turn + (readRecollection(text, first)?.coveredTurns ?? 0);
}

const NO_TOOLS: NonNullable<ModelRequest['tools']> = [];

/** What the model makes of a request's tools: their names, and which one asks a person for help (by its words). */
interface OfferedTools {
  readonly names: ReadonlySet<string>;
  readonly helpTool: string | null;
}

const offeredTools = memoByToolList((tools): OfferedTools => {
  let helpTool: string | null = null;
  for (const tool of tools) {
    if (!('name' in tool)) continue;
    const description = 'description' in tool ? (tool.description ?? '') : '';
    if (offersHelp(tool.name, description)) {
      helpTool = tool.name;
      break;
    }
  }
  return { names: new Set(tools.map((tool) => ('name' in tool ? tool.name : ''))), helpTool };
});

/** Every call's `caller`, shared: nothing reads more of it than its type, and it cannot be changed. */
const DIRECT: ToolUseBlock['caller'] = Object.freeze({ type: 'direct' });

/** What the system prompt says of tool outputs, read once per prompt (the same prompt comes back every turn). */
const saysDataOnly = textMemo(saysToolOutputIsData, 100_000);

/** The last system prompt read and its reading: a run sends the same prompt object every turn. */
let lastSystem: ModelRequest['system'] | null = null;
let lastReading = false;

function outputIsData(system: ModelRequest['system']): boolean {
  if (system === lastSystem) return lastReading;
  const reading =
    system === undefined
      ? false
      : typeof system === 'string'
        ? saysDataOnly(system)
        : system.some((block) => saysDataOnly(block.text));
  lastSystem = system;
  lastReading = reading;
  return reading;
}

function forcedTool(choice: ToolChoice | undefined): string | null {
  return choice?.type === 'tool' ? choice.name : null;
}

/**
 * A seeded stand-in for an LLM agent. `respond` is a pure function of the request, the
 * persona, the task plan and the model's own stream keyed by the turn index (the number
 * of assistant messages already in the request): it reads its progress from the
 * transcript on every call and never sees harness state. A request that asks it to
 * summarise the conversation gets a deterministic summary of what the request holds.
 */
export class SimulatedModel implements ModelClient {
  readonly name = 'simulated';
  readonly #options: SimulatedModelOptions;
  readonly #prefixes = new PrefixInterner();

  constructor(options: SimulatedModelOptions) {
    this.#options = options;
  }

  /**
   * For an endpoint that builds each request afresh (parses a body, reads back a Chat
   * Completions request): gives the request's leading messages that are the same data as
   * the previous request's that previous request's objects, so what was read of them is
   * not read again. Only where the endpoint owns the array. Replies cannot change: every
   * reading is a function of the messages' content, and equality is checked in full.
   */
  adoptPrefix(messages: MessageParam[]): void {
    this.#prefixes.adopt(messages);
  }

  respond(request: ModelRequest): Message {
    const { persona, plan, streamKey } = this.#options;
    const turn = turnIndex(request);
    if (isSummaryRequest(request)) {
      const summary: ContentBlock[] = [{ type: 'text', text: summaryText(request), citations: null }];
      return cutAtOutputLimit(
        assistantMessage(`msg_sim_${streamKey.runSeed}_${turn}_summary`, request, summary),
        request.max_tokens,
      );
    }
    const rng = stream(streamKey, 'model', turn);
    const { names: offered, helpTool } = offeredTools(request.tools ?? NO_TOOLS);
    const action = decide({
      state: readTranscript(request.messages, plan.steps),
      persona,
      plan,
      offered,
      helpTool,
      forcedTool: forcedTool(request.tool_choice),
      toolsDisabled: request.tool_choice?.type === 'none' || offered.size === 0,
      outputIsData: outputIsData(request.system),
      rng,
    });

    let content: ContentBlock[];
    if (action.kind === 'final') content = [{ type: 'text', text: action.text, citations: null }];
    else {
      content = [
        { type: 'text', text: action.note, citations: null },
        { type: 'tool_use', id: `toolu_sim_${turn}`, name: action.tool, input: action.input, caller: DIRECT },
      ];
      // Pushed, not spread into the literal: a spread goes through the iterator protocol on every reply.
      const { more } = action;
      if (more !== undefined)
        for (let i = 0; i < more.length; i++)
          content.push({
            type: 'tool_use',
            id: `toolu_sim_${turn}_${i + 1}`,
            name: more[i]!.tool,
            input: more[i]!.input,
            caller: DIRECT,
          });
    }
    // The API stops writing at max_tokens, whatever the model meant to say.
    return cutAtOutputLimit(
      assistantMessage(`msg_sim_${streamKey.runSeed}_${turn}`, request, content),
      request.max_tokens,
    );
  }

  /**
   * Not an async function: the reply is known at once, and an async layer around it cost
   * a generator-like frame on every call. A promise already settled with the reply is what
   * the async function returned; what goes wrong still arrives as a rejection.
   */
  create(request: ModelRequest): Promise<Message> {
    try {
      return Promise.resolve(this.respond(request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The same reply as stream events: the content cannot depend on how it is delivered. */
  stream(request: ModelRequest): AsyncIterable<RawMessageStreamEvent> {
    return eventStream(messageStreamEvents(this.respond(request)));
  }
}
