import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { stream } from '../../random/streams.js';
import { loadScenario } from '../../scenarios/loader.js';
import type { Persona } from '../../scenarios/persona-schema.js';
import { detour } from './actions.js';
import { readTranscript } from './transcript-reader.js';

/**
 * Real spirals are varied calls: a re-check is one the model did not make in its last two
 * calls, and only the persona's `detour.resend` sends the last re-check again unchanged.
 */
const SCENARIO = loadScenario('fetch-transform-write');
const { plan } = SCENARIO;
const TOOLS = new Set(['get_user', 'search_users', 'transform_record', 'write_result', 'read_result']);
const USER = JSON.stringify(SCENARIO.world.records['users']!['u_1042']);

let ids = 0;
function exchange(name: string, input: Record<string, unknown>, content: string): MessageParam[] {
  const id = `toolu_d${ids++}`;
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  ];
}

const transcript: MessageParam[] = [
  { role: 'user', content: SCENARIO.prompt },
  ...exchange('get_user', { user_id: 'u_1042' }, USER),
  ...exchange('search_users', { query: 'lovelace' }, '{"query":"lovelace","matches":[{"id":"u_1042"}]}'),
  ...exchange('read_result', { key: 'u_1042' }, '{"found":false}'),
];

function detourAt(seed: number, persona: Persona) {
  return detour({
    state: readTranscript(transcript, plan.steps),
    persona,
    plan,
    offered: TOOLS,
    helpTool: null,
    forcedTool: null,
    toolsDisabled: false,
    rng: stream({ sweepSeed: 0, scenario: 'detour-test', runSeed: seed }, 'model', transcript.length),
  });
}

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const key = (action: ReturnType<typeof detourAt>) =>
  action.kind === 'call' ? `${action.tool} ${JSON.stringify(action.input)}` : 'final';

describe('a detour', () => {
  it('never repeats one of the last two calls when the persona does not re-send', () => {
    const never: Persona = { ...SCENARIO.persona, detour: { ...SCENARIO.persona.detour, resend: 0 } };
    const picked = new Set(SEEDS.map((seed) => key(detourAt(seed, never))));
    expect(picked.has('search_users {"query":"lovelace"}')).toBe(false);
    expect(picked.has('read_result {"key":"u_1042"}')).toBe(false);
    // ...and still varies among the others.
    expect(picked.size).toBeGreaterThanOrEqual(3);
  });

  it("re-sends the last re-check unchanged only as the persona's trait (detour.resend)", () => {
    const always: Persona = { ...SCENARIO.persona, detour: { ...SCENARIO.persona.detour, resend: 1 } };
    for (const seed of SEEDS) expect(key(detourAt(seed, always))).toBe('read_result {"key":"u_1042"}');
  });

  it("never contains a plan step's own call (the loader refuses such a detour)", () => {
    for (const detourCall of plan.detours)
      for (const step of plan.steps) expect([detourCall.tool, detourCall.args]).not.toEqual([step.tool, step.args]);
  });
});
