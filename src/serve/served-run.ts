import { AgentToolFailure } from '../agents/agent-meter.js';
import type { AgentRunEnding, AgentRunSession } from '../agents/agent-run-session.js';
import type { RunOutput } from '../run/run-session.js';
import type { AgentEvent } from '../loop/events.js';
import { assistantTextsOf } from '../sweep/traces.js';
import { ServeRefusal } from './serve-refusal.js';

/** What an MCP tool call came to, before its wire form: the result text, or the tool's failure. */
export type ServedToolAnswer =
  | { readonly kind: 'ok'; readonly text: string }
  | { readonly kind: 'failed'; readonly failure: AgentToolFailure };

/** A model call's answer as the endpoint wrote it, to be sent to the agent as it is. */
export interface ServedModelReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * One run of a served sweep: an agent session the out-of-process agent reaches over HTTP.
 * Model calls go to the session's endpoint and are counted by its meter, tool calls go through its meter,
 * so they are counted, faulted and charged virtual time exactly as an in-process agent's.
 *
 * @example
 * const run = sweep.start(7);
 * const answer = await run.callTool('get_user', { user_id: 'u_1042' }); // { kind: 'ok', text } or { kind: 'failed', failure }
 */
export class ServedRun {
  readonly id: string;
  readonly session: AgentRunSession;
  /** The tool events of the run, for its trace. */
  readonly events: AgentEvent[];
  /** The run's record, judged on its world when the agent first ended it. */
  #judged: RunOutput | undefined;
  /** The same, once it is stored: only then has the run ended. */
  #ended: RunOutput | undefined;
  #assistantTexts: readonly string[] = [];

  constructor(id: string, session: AgentRunSession, events: AgentEvent[]) {
    this.id = id;
    this.session = session;
    this.events = events;
  }

  get seed(): number {
    return this.session.seed;
  }

  get ended(): RunOutput | undefined {
    return this.#ended;
  }

  /**
   * One model call: `path` is `/v1/messages` or `/v1/chat/completions`, `body` the request
   * as the client sent it. Only the body crosses: no header of the agent's (its key) is
   * passed on. Rejects when the seeded fault drops the connection.
   */
  async callModel(path: string, body: string): Promise<ServedModelReply> {
    this.#checkOpen();
    const { endpoint, meter } = this.session;
    const answer = await endpoint.fetch(`${endpoint.baseURL.anthropic}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    // Counted as meter.fetch counts an answered call, without wrapping the text in a second Response.
    if (answer.status === 200) meter.observeCall(body, text);
    return { status: answer.status, headers: Object.fromEntries(answer.headers), body: text };
  }

  /** One tool execution through the run's seeded host; the fault is drawn when this is called. */
  async callTool(name: string, input: Record<string, unknown>): Promise<ServedToolAnswer> {
    this.#checkOpen();
    try {
      return { kind: 'ok', text: await this.session.meter.runTool(name, input) };
    } catch (error) {
      if (error instanceof AgentToolFailure) return { kind: 'failed', failure: error };
      throw error;
    }
  }

  /**
   * The run's record, judged on its world the first time the agent ends it. The run has
   * not ended until `stored` says its record is on disk: an end whose record could not be
   * stored is retried, and gets the record judged the first time (the world is judged once).
   */
  judge(ending: AgentRunEnding): RunOutput {
    if (this.#ended !== undefined) this.#checkOpen();
    if (this.#judged === undefined) {
      const output = this.session.finish(ending);
      // A served sweep holds its runs until it ends, for their traces: what the model said, not the whole conversation.
      this.#assistantTexts = assistantTextsOf(output.result.messages);
      this.#judged = { ...output, result: { ...output.result, messages: [] } };
    }
    return this.#judged;
  }

  /**
   * What the model said at each assistant turn of the run's conversation as read off the wire,
   * the scenario's history included (its history alone when no call was answered); empty
   * until the run is judged.
   */
  get assistantTexts(): readonly string[] {
    return this.#assistantTexts;
  }

  /** The judged record is stored: the run has ended. */
  stored(): void {
    this.#ended = this.#judged;
  }

  #checkOpen(): void {
    if (this.#ended !== undefined)
      throw new ServeRefusal(
        409,
        'run_ended',
        `run ${this.id} has ended; start another with POST /runs (its record: ${this.#ended.record.verdict})`,
      );
    if (this.#judged !== undefined)
      throw new ServeRefusal(
        409,
        'run_ending',
        `run ${this.id} was ended (verdict ${this.#judged.record.verdict}) but its record is not stored yet: POST /runs/${this.id}/end again to store it`,
      );
  }
}
