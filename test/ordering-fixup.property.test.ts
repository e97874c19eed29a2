import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../src/clock/virtual-clock.js';
import type { LoopContext } from '../src/loop/guard.js';
import { fixMessageOrder, orderingFixup } from '../src/loop/guards/ordering-fixup.js';
import type { ModelRequest } from '../src/model/model-client.js';
import { requestProblem } from '../src/model/simulated/request-validation.js';

/*
 * The fixup's promise, checked against the simulated endpoint's own validation (the
 * Messages API's rules): from any history at all, the fixed transcript is accepted.
 */

const TOOLS: Tool[] = [
  { name: 'get_user', input_schema: { type: 'object' } },
  { name: 'write_result', input_schema: { type: 'object' } },
];
const OFFERED = new Set(TOOLS.map((tool) => tool.name));

const id = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3', 'toolu_4');
const block: fc.Arbitrary<ContentBlockParam> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.constantFrom('', 'hello', 'resumed') }),
  fc.record({
    type: fc.constant('tool_use' as const),
    id,
    name: fc.constantFrom('get_user', 'write_result', 'not_offered'),
    input: fc.constant({}),
  }),
  fc.record({
    type: fc.constant('tool_result' as const),
    tool_use_id: id,
    content: fc.constantFrom('{}', 'Error: timeout'),
  }),
);
const message: fc.Arbitrary<MessageParam> = fc.record({
  role: fc.constantFrom('user' as const, 'assistant' as const),
  content: fc.oneof(fc.constantFrom('', 'plain text'), fc.array(block, { maxLength: 5 })),
});
const history = fc.array(message, { maxLength: 12 });

const request = (messages: MessageParam[]): ModelRequest => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  tools: TOOLS,
  messages,
});

describe('fixMessageOrder (property)', () => {
  it('turns any history, followed by the prompt, into a transcript the API accepts', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const fixed = fixMessageOrder([...messages, { role: 'user', content: 'prompt' }], OFFERED);
        expect(requestProblem(request(fixed.messages))).toBeNull();
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('through the guard too: what it lets pass unchanged (its quick check) the API accepts', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const transcript = [...messages, { role: 'user' as const, content: 'prompt' }];
        const ctx: LoopContext = {
          clock: new VirtualClock(),
          emit: () => {},
          toolCalls: 0,
          toolExecutions: 0,
          toolTraits: () => undefined,
          iteration: 0,
          messages: transcript,
        };
        // The guard answers at once; a promise here would be a change worth failing on.
        const sent = orderingFixup().prepareRequest!(request(transcript), ctx) as ModelRequest;
        expect(requestProblem(sent)).toBeNull();
      }),
      { numRuns: 2000, seed: 5 },
    );
  });

  it('lets no misplaced block through its quick check: one block moved in a valid transcript is caught', () => {
    const valid: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_user', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' }] },
    ];
    const misplaced: MessageParam[][] = [
      [
        valid[0]!,
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_user', input: {} },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' },
          ],
        },
        valid[2]!,
      ],
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'go' },
            { type: 'tool_use', id: 'toolu_9', name: 'get_user', input: {} },
          ],
        },
        valid[1]!,
        valid[2]!,
      ],
    ];
    for (const transcript of misplaced) {
      expect(requestProblem(request(transcript))).not.toBeNull();
      const ctx: LoopContext = {
        clock: new VirtualClock(),
        emit: () => {},
        toolCalls: 0,
        toolExecutions: 0,
        toolTraits: () => undefined,
        iteration: 0,
        messages: transcript,
      };
      const sent = orderingFixup().prepareRequest!(request(transcript), ctx) as ModelRequest;
      expect(requestProblem(sent)).toBeNull();
    }
  });

  it('is idempotent: a fixed transcript needs no further fixing', () => {
    fc.assert(
      fc.property(history, (messages) => {
        const once = fixMessageOrder([...messages, { role: 'user', content: 'prompt' }], OFFERED);
        const twice = fixMessageOrder(once.messages, OFFERED);
        expect(twice).toEqual({ messages: once.messages, merged: 0, droppedResults: 0, strippedCalls: 0 });
      }),
      { numRuns: 1000, seed: 11 },
    );
  });

  it('the generator does reach refused histories (the property is not vacuous)', () => {
    const refused = fc
      .sample(history, { numRuns: 300, seed: 3 })
      .filter((messages) => requestProblem(request([...messages, { role: 'user', content: 'prompt' }])) !== null);
    expect(refused.length).toBeGreaterThan(200);
  });
});
