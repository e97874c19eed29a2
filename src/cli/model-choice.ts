import type { ModelChoice } from '../bench/run-one.js';
import { UserInputError } from '../user-input-error.js';

export type Via = 'in-process' | 'sdk';

/**
 * The simulated model unless `--model` names a real one; a real model needs
 * ANTHROPIC_API_KEY, which is read here and never written anywhere.
 */
export async function chooseModel(options: { readonly model?: string; readonly via: string }, env = process.env): Promise<ModelChoice> {
  if (options.via !== 'in-process' && options.via !== 'sdk') {
    throw UserInputError.single('--via', '', `'in-process' or 'sdk', got '${options.via}'`);
  }
  if (options.model === undefined) return { kind: options.via === 'sdk' ? 'simulated-sdk' : 'simulated' };
  const apiKey = env['ANTHROPIC_API_KEY'];
  if (apiKey === undefined || apiKey === '') {
    throw UserInputError.single('--model', '', `a real model needs ANTHROPIC_API_KEY set; leave --model out to use the simulated model`);
  }
  const { AnthropicModelClient } = await import('../model/anthropic-client.js');
  return { kind: 'client', client: new AnthropicModelClient({ apiKey, name: `anthropic:${options.model}` }), modelId: options.model };
}
