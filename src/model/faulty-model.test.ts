import { RateLimitError } from '@anthropic-ai/sdk/core/error';
import { describe, expect, it } from 'vitest';
import { scriptedModelFaults } from '../faults/model-faults.js';
import { FaultyModel } from './faulty-model.js';
import { ScriptedModel } from './scripted-model.js';

const request = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('FaultyModel.create', () => {
  it('answers a fault with a rejection of the SDK error class, never a throw', async () => {
    const model = new FaultyModel(new ScriptedModel([{ text: 'ok' }]), scriptedModelFaults(['rate_limit']));
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = model.create(request))).not.toThrow();
    await expect(pending).rejects.toBeInstanceOf(RateLimitError);
  });

  it('turns a fault source that breaks into a rejection too, as any client fails', async () => {
    const broken = {
      next: () => {
        throw new Error('bug in a fault source');
      },
    };
    const model = new FaultyModel(new ScriptedModel([{ text: 'ok' }]), broken);
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = model.create(request))).not.toThrow();
    await expect(pending).rejects.toThrow('bug in a fault source');
  });
});
