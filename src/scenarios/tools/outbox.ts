import { invalidInput } from '../../tools/tool-error.js';
import { isDeepFrozen } from '../../memo/frozen-memo.js';
import type { Json } from '../../tools/world.js';
import { requireString } from './tool-input.js';
import type { ToolSpec } from '../../tools/tool-spec.js';

/**
 * What the outbox keeps of a value the model sent: a copy, so nothing the caller does to
 * its argument later changes the world. A value frozen at every depth (the model passing
 * on a remembered parse) cannot change, so it is kept as it is, without the copy.
 */
function ownCopy(value: unknown): Json {
  return (isDeepFrozen(value) ? value : structuredClone(value)) as Json;
}

export const writeResult: ToolSpec = {
  definition: {
    name: 'write_result',
    description: 'Write a value to the results outbox under a key. Each call appends one write.',
    input_schema: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The key to write under, e.g. the user id.' },
        value: { type: 'object', description: 'The value to write.' },
      },
      required: ['key', 'value'],
    },
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 350,
  readBack: { tool: 'read_result', input: { key: 'key' }, count: 'writes' },
  run(input, world) {
    const key = requireString(input, 'key');
    const value = input['value'];
    if (typeof value !== 'object' || value === null) throw invalidInput("'value' must be an object");
    world.outbox.push({ key, value: ownCopy(value) });
    return { ok: true, key, writes: world.outbox.length };
  },
};

export const readResult: ToolSpec = {
  definition: {
    name: 'read_result',
    description: 'Read back what the outbox holds under a key, to verify a write.',
    input_schema: {
      type: 'object',
      properties: { key: { type: 'string', description: 'The key to read.' } },
      required: ['key'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 150,
  run(input, world) {
    const key = requireString(input, 'key');
    const entries = world.outbox.filter((entry) => entry.key === key);
    const last = entries.at(-1);
    return last === undefined ? { key, found: false } : { key, found: true, value: last.value, writes: entries.length };
  },
};

/** The key an answer is written under in the outbox. */
export const ANSWER_KEY = 'answer';

export const submitAnswer: ToolSpec = {
  definition: {
    name: 'submit_answer',
    description:
      'Submit the final answer to the person who asked. The answer is delivered at once; each call delivers one answer.',
    input_schema: {
      type: 'object',
      properties: { answer: { type: 'string', description: 'The answer, as short as it can be while complete.' } },
      required: ['answer'],
    },
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 250,
  run(input, world) {
    const answer = input['answer'];
    if (answer === undefined || answer === null || answer === '') throw invalidInput("'answer' must not be empty");
    world.outbox.push({ key: ANSWER_KEY, value: ownCopy(answer) });
    return { ok: true, delivered: true };
  },
};
