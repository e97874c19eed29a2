import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { stream } from '../random/streams.js';
import { MalformedArguments, malformArguments } from './malformed-arguments.js';

const key = { sweepSeed: 0, scenario: 'malformed-test', runSeed: 1 };
const json = '{"to":"a@b.c","n":1,"ok":true,"note":null,"quote":"it\'s"}';

describe('malformArguments', () => {
  const rng = () => stream(key, 'test', 0);

  it('writes each kind the way models get it wrong', () => {
    expect(malformArguments('fenced', '{"a":1}', 't', rng())).toBe('```json\n{\n  "a": 1\n}\n```');
    expect(malformArguments('trailing_comma', '{"a":1}', 't', rng())).toBe('{\n  "a": 1,\n}');
    expect(malformArguments('prose', '{"a":1}', 'get_user', rng())).toBe(
      'Here are the arguments for get_user: {"a":1}\nI will check the result before moving on.',
    );
    expect(malformArguments('single_quotes', json, 't', rng())).toBe(
      "{'to': 'a@b.c', 'n': 1, 'ok': True, 'note': None, 'quote': 'it\\'s'}",
    );
  });

  it('cuts off between 30% and 90% of the text, never all of it, even for {}', () => {
    for (let i = 0; i < 50; i++) {
      const cut = malformArguments('truncated', json, 't', stream(key, 'cut', i));
      expect(json.startsWith(cut)).toBe(true);
      expect(cut.length).toBeGreaterThanOrEqual(Math.floor(json.length * 0.3));
      expect(cut.length).toBeLessThan(Math.ceil(json.length * 0.9));
    }
    expect(malformArguments('truncated', '{}', 't', rng())).toBe('{');
  });

  it('leaves text that is not JSON as it was written', () => {
    expect(malformArguments('fenced', '{"a":', 't', rng())).toBe('{"a":');
  });
});

function completion(calls: number): ChatCompletion {
  return {
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: Array.from({ length: calls }, (_, i) => ({
            id: `c${i}`,
            type: 'function' as const,
            function: { name: 't', arguments: '{"a":1}' },
          })),
        },
      },
    ],
  };
}

const argumentsOf = (reply: ChatCompletion) =>
  (reply.choices[0]?.message.tool_calls ?? []).map((call) => (call.type === 'function' ? call.function.arguments : ''));

describe('MalformedArguments', () => {
  it('changes nothing without rates, and everything at rate 1', () => {
    const reply = completion(2);
    expect(new MalformedArguments({}, key).apply(reply, 3)).toBe(reply);
    expect(argumentsOf(new MalformedArguments({ fenced: 1 }, key).apply(reply, 3))).toEqual([
      '```json\n{\n  "a": 1\n}\n```',
      '```json\n{\n  "a": 1\n}\n```',
    ]);
  });

  it('decides by (run, turn): the same turn is written the same way, and about the rate of turns are hit', () => {
    const malformed = new MalformedArguments({ prose: 0.2, truncated: 0.1 }, key);
    let hit = 0;
    for (let turn = 0; turn < 2000; turn++) {
      const once = argumentsOf(malformed.apply(completion(1), turn));
      expect(
        argumentsOf(new MalformedArguments({ prose: 0.2, truncated: 0.1 }, key).apply(completion(1), turn)),
      ).toEqual(once);
      if (once[0] !== '{"a":1}') hit += 1;
    }
    expect(hit / 2000).toBeGreaterThan(0.27);
    expect(hit / 2000).toBeLessThan(0.33);
  });

  it('counts the tokens of what was written: a fence costs more, a cut-off text less', () => {
    const reply = { ...completion(1), usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } };
    const fenced = new MalformedArguments({ fenced: 1 }, key).apply(reply, 0);
    // '{"a":1}' is 7 characters (2 tokens); the fenced text is 24 (6 tokens).
    expect(fenced.usage).toEqual({ prompt_tokens: 100, completion_tokens: 24, total_tokens: 124 });
    const cut = new MalformedArguments({ truncated: 1 }, key).apply(reply, 0);
    expect(cut.usage?.completion_tokens).toBeLessThanOrEqual(20);
  });

  it('refuses rates that add up to more than 1', () => {
    expect(() => new MalformedArguments({ fenced: 0.6, prose: 0.5 }, key)).toThrow(/add up to 1.1/);
  });
});
