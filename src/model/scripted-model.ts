import type { ContentBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelClient, ModelRequest } from './model-client.js';
import { assistantMessage } from './assistant-message.js';

/**
 * One scripted reply: text, tool calls, or both. A call's `input` may be text: arguments
 * as the OpenAI-compatible edge delivers them, possibly malformed.
 *
 * @example
 * const turns: ScriptedTurn[] = [{ calls: [{ name: 'get_user', input: { id: 'u_1' } }] }, { text: 'Done.' }];
 */
export type ScriptedTurn = {
  readonly text?: string;
  readonly calls?: ReadonlyArray<{ readonly name: string; readonly input: Record<string, unknown> | string }>;
};

/**
 * Replays a fixed list of replies, for exact tests of the loop and its guards. It keeps
 * every request it was sent (`requests`), and fails loudly when the script runs out.
 *
 * @example
 * const model = new ScriptedModel([{ calls: [{ name: 'get_user', input: { id: 'u_1' } }] }, { text: 'Done.' }]);
 * await new BudgetedAgentLoop({ model, tools }).run('Fetch u_1');
 * expect(model.requests).toHaveLength(2);
 */
export class ScriptedModel implements ModelClient {
  readonly name = 'scripted';
  readonly requests: ModelRequest[] = [];
  readonly #turns: readonly ScriptedTurn[];
  readonly #startAt: number;

  /** `startAt`: the first reply is script turn `startAt` (a run resumed mid-script in a new process), ids numbered from there. */
  constructor(turns: readonly ScriptedTurn[], { startAt = 0 }: { readonly startAt?: number } = {}) {
    this.#turns = turns;
    this.#startAt = startAt;
  }

  async create(request: ModelRequest): Promise<Message> {
    const index = this.#startAt + this.requests.length;
    this.requests.push(structuredClone(request));
    const turn = this.#turns[index];
    if (turn === undefined)
      throw new Error(`scripted model has no reply for call ${index + 1} (script has ${this.#turns.length})`);
    const content: ContentBlock[] = [];
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text, citations: null });
    (turn.calls ?? []).forEach((call, i) =>
      content.push({
        type: 'tool_use',
        id: `toolu_script_${index}_${i}`,
        name: call.name,
        input: call.input,
        caller: { type: 'direct' },
      }),
    );
    return assistantMessage(`msg_script_${index}`, request, content);
  }
}
