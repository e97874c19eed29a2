import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.js';
import { MODEL_FAULT_KINDS, type ModelFaultKind } from '../faults/model-faults.js';
import { SIMULATED_BASE_URLS, type AgentEndpoint } from '../run/simulated-endpoint.js';
import { CassetteMismatchError } from './cassette-client.js';
import { readCassette } from './cassette-file.js';
import { RecordingEndpoint, ReplayingEndpoint } from './cassette-fetch.js';

const RUN = { scenario: 'tiny', arm: 'agent:mine', seed: 2, member: undefined };
const URL_ = `${SIMULATED_BASE_URLS.anthropic}/v1/messages`;
const tempDir = () => mkdtempSync(join(tmpdir(), 'spiralbench-cassette-fetch-'));

const context = () => ({
  run: RUN,
  clock: new VirtualClock(),
  faultCounts: Object.fromEntries(MODEL_FAULT_KINDS.map((kind) => [kind, 0])) as Record<ModelFaultKind, number>,
});

const body = (text: string) =>
  JSON.stringify({ model: 'm', max_tokens: 10, system: 'Be brief.', messages: [{ role: 'user', content: text }] });
const post = (endpoint: AgentEndpoint, text: string) =>
  endpoint.fetch(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(text) });

/**
 * A model on the wire: echoes the user's text; `busy` gets a 529 with retry-after that
 * took 2 s of virtual time and counts as an injected fault; `drop` loses the connection.
 */
function echoEndpoint(ctx: ReturnType<typeof context>): AgentEndpoint {
  return {
    baseURL: SIMULATED_BASE_URLS,
    modelId: 'm',
    fetch: async (_input, init) => {
      const request = JSON.parse(String(init?.body)) as { messages: Array<{ content: string }> };
      const text = request.messages[0]!.content;
      if (text === 'drop') throw new TypeError('fetch failed');
      if (text === 'busy') {
        ctx.clock.sleep(2000);
        ctx.faultCounts.overloaded += 1;
        return new Response('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {
          status: 529,
          headers: { 'content-type': 'application/json', 'retry-after': '2' },
        });
      }
      return new Response(JSON.stringify({ type: 'message', content: [{ type: 'text', text: `echo ${text}` }] }), {
        headers: {
          'content-type': 'application/json',
          'request-id': `req_${text}`,
          'anthropic-organization-id': 'org-4f2a',
          'set-cookie': 'session=abc',
        },
      });
    },
  };
}

async function answers(endpoint: AgentEndpoint, texts: readonly string[]) {
  const out: unknown[] = [];
  for (const text of texts) {
    try {
      const response = await post(endpoint, text);
      out.push([
        response.status,
        response.headers.get('retry-after'),
        response.headers.get('request-id'),
        await response.text(),
      ]);
    } catch (error) {
      out.push(['thrown', (error as Error).message]);
    }
  }
  return out;
}

describe('cassettes on the wire (agents, frameworks, served agents)', () => {
  it('replay each response, error and dropped connection as recorded, with its virtual time and injected fault', async () => {
    const dir = tempDir();
    const texts = ['a', 'busy', 'b', 'drop'];
    const live = context();
    const recording = new RecordingEndpoint(echoEndpoint(live), live, 'simulated-sdk');
    const recorded = await answers(recording.endpoint, texts);
    recording.save(dir);
    const again = context();
    const replaying = ReplayingEndpoint.open(dir, 'unused', again, { baseURL: SIMULATED_BASE_URLS, modelId: 'm' });
    expect(replaying.label).toBe('simulated-sdk');
    expect(await answers(replaying.endpoint, texts)).toEqual(recorded);
    expect(again.clock.now()).toBe(2000);
    expect(again.faultCounts.overloaded).toBe(1);
    expect(replaying.missed).toBeUndefined();
    // A JSON body is kept as JSON (readable, diffable), not as an escaped string.
    const kept = readCassette(dir, RUN).exchanges[0]!.response;
    expect(kept).toMatchObject({ status: 200, json: { type: 'message' } });
    // Nothing that names the account or carries a session goes into a file meant for a repository.
    expect(Object.keys(kept!.headers).sort()).toEqual(['content-type', 'request-id']);
  });

  it('answers calls made at once in the order they arrive, matched by request', async () => {
    const dir = tempDir();
    const live = context();
    const recording = new RecordingEndpoint(echoEndpoint(live), live, 'simulated-sdk');
    await answers(recording.endpoint, ['a', 'b', 'c']);
    recording.save(dir);
    const replaying = ReplayingEndpoint.open(dir, 'unused', context(), { baseURL: SIMULATED_BASE_URLS, modelId: 'm' });
    expect(await answers(replaying.endpoint, ['c', 'a', 'b'])).toEqual(
      ['c', 'a', 'b'].map((text) => [
        200,
        null,
        `req_${text}`,
        JSON.stringify({ type: 'message', content: [{ type: 'text', text: `echo ${text}` }] }),
      ]),
    );
  });

  it('refuses a changed request with a 400 and keeps why, naming the run, the call and the part', async () => {
    const dir = tempDir();
    const live = context();
    const recording = new RecordingEndpoint(echoEndpoint(live), live, 'simulated-sdk');
    await answers(recording.endpoint, ['a']);
    recording.save(dir);
    const replaying = ReplayingEndpoint.open(dir, 'unused', context(), { baseURL: SIMULATED_BASE_URLS, modelId: 'm' });
    const [[status]] = (await answers(replaying.endpoint, ['changed'])) as [[number]];
    expect(status).toBe(400);
    expect(replaying.missed).toBeInstanceOf(CassetteMismatchError);
    expect(replaying.missed?.message).toBe(
      `tiny · agent:mine · seed 2, model call 1: the request differs from the recorded one at messages[0] (${join(dir, 'tiny', 'agent%3Amine', '2.jsonl')})`,
    );
    const never = ReplayingEndpoint.open(tempDir(), 'simulated-sdk', context(), {
      baseURL: SIMULATED_BASE_URLS,
      modelId: 'm',
    });
    await answers(never.endpoint, ['a']);
    expect(never.missed?.message).toContain('no cassette for tiny · agent:mine · seed 2');
  });

  it('with a live endpoint behind it, sends what the cassette lacks there and records the run again', async () => {
    const dir = tempDir();
    const first = context();
    const recording = new RecordingEndpoint(echoEndpoint(first), first, 'simulated-sdk');
    await answers(recording.endpoint, ['a']);
    recording.save(dir);
    const live = context();
    const topUp = ReplayingEndpoint.open(
      dir,
      'unused',
      live,
      { baseURL: SIMULATED_BASE_URLS, modelId: 'm' },
      echoEndpoint(live),
    );
    expect(await answers(topUp.endpoint, ['a', 'b'])).toHaveLength(2);
    expect(topUp.missed).toBeUndefined();
    topUp.saveRecorded(dir);
    expect(readCassette(dir, RUN).exchanges).toHaveLength(2);
  });

  it("matches a call by its path under the API's base URL, so a server's address may change", async () => {
    const dir = tempDir();
    const live = context();
    const served = { anthropic: 'http://127.0.0.1:8799/runs/1', openai: 'http://unserved.invalid' };
    const recording = new RecordingEndpoint({ ...echoEndpoint(live), baseURL: served }, live, 'anthropic:m');
    await recording.endpoint.fetch(`${served.anthropic}/v1/messages`, { method: 'POST', body: body('a') });
    recording.save(dir);
    expect(readCassette(dir, RUN).exchanges[0]!.request.path).toBe('/v1/messages');
    const replaying = ReplayingEndpoint.open(dir, 'unused', context(), { baseURL: SIMULATED_BASE_URLS, modelId: 'm' });
    expect((await post(replaying.endpoint, 'a')).status).toBe(200);
    expect(replaying.missed).toBeUndefined();
  });
});
