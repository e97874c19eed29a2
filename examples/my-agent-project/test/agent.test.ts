import { ScriptedModel } from 'spiralbench';
import { describe, expect, it } from 'vitest';
import { runProfileAgent } from '../src/agent.js';
import { type ProfileStore, profileTools } from '../src/profile-tools.js';

const store = (timeoutsLeft = 0): ProfileStore => ({
  customers: { c_7: { name: 'Katherine Johnson', email: 'kj@nasa.example' } },
  saved: [],
  timeoutsLeft,
});
const read = { name: 'get_customer', input: { id: 'c_7' } };
const save = { name: 'save_profile', input: { id: 'c_7', profile: { display_name: 'Katherine Johnson' } } };

describe('the profile agent', () => {
  it('reads, saves once and reports', async () => {
    const tools = store();
    const model = new ScriptedModel([{ calls: [read] }, { calls: [save] }, { text: 'Saved c_7.' }]);
    const result = await runProfileAgent(model, profileTools(tools), 'c_7');
    expect(result.outcome).toEqual({ kind: 'completed', finalText: 'Saved c_7.' });
    expect(tools.saved).toHaveLength(1);
  });

  it('rides out a timeout of the read with a retry the model never sees', async () => {
    const tools = store(1);
    const model = new ScriptedModel([{ calls: [read] }, { calls: [save] }, { text: 'Saved c_7.' }]);
    const result = await runProfileAgent(model, profileTools(tools), 'c_7');
    expect(result.metrics.toolRetries).toBe(1);
    expect(result.metrics.virtualMs).toBeGreaterThanOrEqual(11_000);
    expect(tools.saved).toHaveLength(1);
  });

  it('never saves a profile twice, whatever the model asks', async () => {
    const tools = store();
    const again = { ...save, input: { ...save.input, profile: { display_name: 'K. Johnson' } } };
    const model = new ScriptedModel([{ calls: [read] }, { calls: [save] }, { calls: [again] }, { text: 'Saved.' }]);
    const result = await runProfileAgent(model, profileTools(tools), 'c_7');
    expect(result.outcome.kind).toBe('completed');
    expect(tools.saved).toEqual([{ id: 'c_7', profile: { display_name: 'Katherine Johnson' } }]);
    expect(JSON.stringify(model.requests.at(-1)?.messages.at(-1))).toContain('was not saved again');
  });
});
