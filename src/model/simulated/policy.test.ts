import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { stream } from '../../random/streams.js';
import { loadPersona } from '../../scenarios/loader.js';
import type { ScenarioFile } from '../../scenarios/schema.js';
import type { Persona } from '../../scenarios/persona-schema.js';
import { decide, type Action } from './policy.js';
import { readTranscript } from './transcript-reader.js';

const DEFAULT = loadPersona('default').persona;
/** The default persona, made to go straight to the next step so the test sees its arguments. */
const STRAIGHT: Persona = {
  ...DEFAULT,
  detour: { ...DEFAULT.detour, after_success: 0 },
  malformed: { proceed_on_invented: 1 },
};

const PLAN: ScenarioFile['plan'] = {
  steps: [
    { id: 'u1', tool: 'get_user', args: { user_id: 'u_1' }, variants: [], alternatives: [] },
    { id: 'u2', tool: 'get_user', args: { user_id: 'u_2' }, variants: [], alternatives: [] },
    {
      id: 'write',
      tool: 'write_result',
      args: {
        key: 'digest',
        value: {
          emails: ['$u1.email', '$u2.email'],
          names: { first: '$u1.name', second: '$u2.name' },
          team: '$u2.team',
          first: '$u1',
        },
      },
      variants: [],
      alternatives: [],
    },
  ],
  detours: [],
  final: 'done',
};

const U1 = { id: 'u_1', name: 'Ada Lovelace', email: 'ada@example.com' };
const U2 = { id: 'u_2', name: 'Alan Turing', email: 'alan@example.com', team: 'crypto' };

let nextId = 0;
function exchange(name: string, input: Record<string, unknown>, content: string): MessageParam[] {
  const id = `toolu_p${nextId++}`;
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  ];
}

function next(messages: MessageParam[], runSeed = 1): Action {
  return decide({
    state: readTranscript(messages, PLAN.steps),
    persona: STRAIGHT,
    plan: PLAN,
    offered: new Set(['get_user', 'write_result']),
    helpTool: null,
    forcedTool: null,
    toolsDisabled: false,
    rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', messages.length),
  });
}

const start: MessageParam = { role: 'user', content: 'Build the digest.' };

describe('decide: $step references', () => {
  it('resolves references at any depth of the arguments, whole results and parts of them', () => {
    const action = next([
      start,
      ...exchange('get_user', { user_id: 'u_1' }, JSON.stringify(U1)),
      ...exchange('get_user', { user_id: 'u_2' }, JSON.stringify(U2)),
    ]);
    expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual([
      'write_result',
      {
        key: 'digest',
        value: {
          emails: ['ada@example.com', 'alan@example.com'],
          names: { first: 'Ada Lovelace', second: 'Alan Turing' },
          team: 'crypto',
          first: U1,
        },
      },
    ]);
  });

  it('gives null for a part a good result does not have', () => {
    const { team: _, ...withoutTeam } = U2;
    const action = next([
      start,
      ...exchange('get_user', { user_id: 'u_1' }, JSON.stringify(U1)),
      ...exchange('get_user', { user_id: 'u_2' }, JSON.stringify(withoutTeam)),
    ]);
    expect(action.kind === 'call' ? (action.input['value'] as Record<string, unknown>)['team'] : action).toBeNull();
  });

  it('after an unreadable result, carries on with one made-up record per step: salvaged fields, invented gaps', () => {
    for (const runSeed of [1, 2, 3, 4, 5]) {
      const cut = '{"id":"u_2","team":"crypto","name":"Alan Tu';
      const action = next(
        [
          start,
          ...exchange('get_user', { user_id: 'u_1' }, JSON.stringify(U1)),
          ...exchange('get_user', { user_id: 'u_2' }, cut),
        ],
        runSeed,
      );
      if (action.kind !== 'call') throw new Error('expected a call');
      const value = action.input['value'] as { emails: string[]; names: { second: string }; team: string };
      expect(action.tool).toBe('write_result');
      expect(value.emails[0]).toBe('ada@example.com');
      // The salvaged field is kept; the cut-off name is made up, and the email follows it,
      // so every reference to the step reads the same invented record.
      expect(value.team).toBe('crypto');
      expect(value.names.second).not.toBe('Alan Turing');
      expect(value.emails[1]).toBe(`${value.names.second.toLowerCase().replace(/\s+/g, '.')}@example.com`);
    }
  });
});

describe('decide: results that say they found nothing', () => {
  it('treats "No results found" as a failed attempt at the step, not as done', () => {
    const plan: ScenarioFile['plan'] = {
      steps: [
        { id: 'search', tool: 'search_knowledge_base', args: { query: 'q' }, variants: [], alternatives: [] },
        {
          id: 'answer',
          tool: 'submit_answer',
          args: { answer: '$search.results.0.answer' },
          variants: [],
          alternatives: [],
        },
      ],
      detours: [],
      final: 'done',
    };
    const messages = [
      start,
      ...exchange(
        'search_knowledge_base',
        { query: 'q' },
        JSON.stringify({ query: 'q', results: [], message: 'No results found for this query.' }),
      ),
    ];
    const state = readTranscript(messages, plan.steps);
    expect(state.nextStep).toBe(0);
    expect(state.failuresAt).toEqual([1, 0]);
    for (const runSeed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const action = decide({
        state,
        persona: DEFAULT,
        plan,
        offered: new Set(['search_knowledge_base', 'submit_answer']),
        helpTool: null,
        forcedTool: null,
        toolsDisabled: false,
        rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', 1),
      });
      // Never on to submitting an answer it does not have.
      expect(action.kind === 'call' ? action.tool : 'final').not.toBe('submit_answer');
    }
  });
});

describe('decide: loop warnings and other tools for a step', () => {
  const plan: ScenarioFile['plan'] = {
    steps: [
      {
        id: 'find',
        tool: 'search_knowledge_base',
        args: { query: 'latest order c_77' },
        variants: [{ query: 'recent order c_77' }],
        alternatives: [{ tool: 'list_orders', args: { customer_id: 'c_77' } }],
      },
      {
        id: 'answer',
        tool: 'submit_answer',
        args: { answer: '$find.orders.0.status' },
        variants: [],
        alternatives: [],
      },
    ],
    detours: [],
    final: 'done',
  };
  const NOTHING = JSON.stringify({ query: 'q', results: [], message: 'No results found for this query.' });
  const searched = (note: string): MessageParam[] => {
    const turns = [start, ...exchange('search_knowledge_base', { query: 'latest order c_77' }, NOTHING)];
    const last = turns.at(-1)!;
    return [...turns.slice(0, -1), { role: 'user', content: [...(last.content as []), { type: 'text', text: note }] }];
  };
  const choose = (messages: MessageParam[], persona: Persona, offered: string[], runSeed: number, steps = plan) =>
    decide({
      state: readTranscript(messages, steps.steps),
      persona,
      plan: steps,
      offered: new Set(offered),
      helpTool: offered.includes('request_human_help') ? 'request_human_help' : null,
      forcedTool: null,
      toolsDisabled: false,
      rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', 1),
    });
  const TOOLS = ['search_knowledge_base', 'list_orders', 'submit_answer'];
  const HEEDS: Persona = { ...DEFAULT, loop_warning: { nudge: 1, directive: 1 } };
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);

  it('after a nudge it heeds, turns to the tool the plan knows for the step', () => {
    for (const runSeed of seeds) {
      const action = choose(
        searched('Loop check: ... Step back and try a different tool or a different approach.'),
        HEEDS,
        TOOLS,
        runSeed,
      );
      expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual([
        'list_orders',
        { customer_id: 'c_77' },
      ]);
    }
  });

  it('after "Stop calling X" with no other tool: asks for help if it can, else gives up in words, never calls X again', () => {
    const noAlternative = { ...plan, steps: [{ ...plan.steps[0]!, alternatives: [] }, plan.steps[1]!] };
    const directive = searched(
      'Stop calling search_knowledge_base: 4 of your last 6 calls went to it without progress.',
    );
    for (const runSeed of seeds) {
      expect(choose(directive, HEEDS, [...TOOLS, 'request_human_help'], runSeed, noAlternative)).toMatchObject({
        kind: 'call',
        tool: 'request_human_help',
      });
      expect(choose(directive, HEEDS, TOOLS, runSeed, noAlternative).kind).toBe('final');
    }
  });

  it('reads the words, not the guard: with no warning and no spontaneous switching, it never finds the other tool', () => {
    const blind: Persona = { ...HEEDS, alternatives: { spontaneous: 0 } };
    for (const runSeed of seeds) {
      const action = choose(searched('Here are the results.'), blind, TOOLS, runSeed);
      expect(action.kind === 'call' ? action.tool : 'final').not.toBe('list_orders');
    }
  });

  it('a call of the other tool serves the step: its result is the step result later steps refer to', () => {
    const messages = [
      start,
      ...exchange(
        'list_orders',
        { customer_id: 'c_77' },
        JSON.stringify({ customer_id: 'c_77', orders: [{ id: 'o_1', status: 'shipped' }] }),
      ),
    ];
    const state = readTranscript(messages, plan.steps);
    expect(state.nextStep).toBe(1);
    const action = choose(messages, { ...STRAIGHT }, TOOLS, 1);
    expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual([
      'submit_answer',
      { answer: 'shipped' },
    ]);
  });
});

describe('decide: independent steps in one turn', () => {
  const plan: ScenarioFile['plan'] = {
    steps: [
      { id: 'a', tool: 'get_user', args: { user_id: 'u_1' }, variants: [], alternatives: [] },
      { id: 'b', tool: 'get_user', args: { user_id: 'u_2' }, variants: [], alternatives: [] },
      { id: 'c', tool: 'get_user', args: { user_id: 'u_3' }, variants: [], alternatives: [] },
      { id: 'w', tool: 'write_result', args: { key: 'k', value: ['$a', '$b', '$c'] }, variants: [], alternatives: [] },
    ],
    detours: [],
    final: 'done',
  };
  const first = (persona: Persona, runSeed: number) =>
    decide({
      state: readTranscript([start], plan.steps),
      persona,
      plan,
      offered: new Set(['get_user', 'write_result']),
      helpTool: null,
      forcedTool: null,
      toolsDisabled: false,
      rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', 0),
    });

  it('calls the next independent steps together when its persona does, never past one that needs them', () => {
    const batcher: Persona = { ...DEFAULT, parallel: { probability: 1, max_calls: 8 } };
    const action = first(batcher, 1);
    expect(action.kind === 'call' ? [action.input, action.more] : action).toEqual([
      { user_id: 'u_1' },
      [
        { tool: 'get_user', input: { user_id: 'u_2' } },
        { tool: 'get_user', input: { user_id: 'u_3' } },
      ],
    ]);
    const single: Persona = { ...DEFAULT, parallel: { probability: 0, max_calls: 8 } };
    for (const runSeed of [1, 2, 3, 4]) expect(first(single, runSeed)).not.toHaveProperty('more');
  });
});

describe('decide: arguments it wrote as text', () => {
  /** A persona that, after an error, always retries the same call. */
  const RETRIER: Persona = {
    ...DEFAULT,
    give_up: { ...DEFAULT.give_up, base: 0, per_failure: 0 },
    verify: { when_warned: 0, after_error: 0 },
    detour: { ...DEFAULT.detour, after_error: 0 },
    retry: { ...DEFAULT.retry, same: 1, varied: 0 },
  };
  const plan: ScenarioFile['plan'] = {
    steps: [
      { id: 'fetch', tool: 'get_user', args: { user_id: 'u_1' }, variants: [], alternatives: [] },
      { id: 'write', tool: 'write_result', args: { key: 'k', value: '$fetch' }, variants: [], alternatives: [] },
    ],
    detours: [],
    final: 'done',
  };
  const decideWith = (messages: MessageParam[], runSeed: number) =>
    decide({
      state: readTranscript(messages, plan.steps),
      persona: RETRIER,
      plan,
      offered: new Set(['get_user', 'write_result']),
      helpTool: null,
      forcedTool: null,
      toolsDisabled: false,
      rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', 1),
    });
  const refused =
    'Error: the arguments of this get_user call are not valid JSON (cut off). The call was not run. Send the call again with its arguments as one JSON object.';

  it('reads a call it wrote badly leniently: a cut-off call is still its attempt at the step', () => {
    const state = readTranscript(
      [start, ...exchange('get_user', '{"user_id": "u_' as unknown as Record<string, unknown>, refused)],
      plan.steps,
    );
    expect(state.calls[0]).toMatchObject({
      name: 'get_user',
      input: { user_id: 'u_' },
      step: 0,
      role: 'plan',
      garbled: true,
    });
    expect(state.failuresAt).toEqual([1, 0]);
  });

  it('sending such a call again, writes the arguments afresh instead of copying the broken ones', () => {
    for (const runSeed of [1, 2, 3, 4, 5]) {
      const action = decideWith(
        [start, ...exchange('get_user', '{"user_id": "u_' as unknown as Record<string, unknown>, refused)],
        runSeed,
      );
      expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual(['get_user', { user_id: 'u_1' }]);
    }
  });

  it('a call it wrote well is repeated as written', () => {
    const action = decideWith(
      [
        start,
        ...exchange(
          'get_user',
          '{"user_id":"u_9"}' as unknown as Record<string, unknown>,
          'Error: Network timeout. May succeed if retried.',
        ),
      ],
      1,
    );
    expect(action.kind === 'call' ? [action.tool, action.input] : action).toEqual(['get_user', { user_id: 'u_9' }]);
  });
});

describe('decide: after a turn of several calls where one failed', () => {
  it('asks again only for the step that failed, not for those it already has', () => {
    const plan: ScenarioFile['plan'] = {
      steps: [
        { id: 'a', tool: 'get_user', args: { user_id: 'u_1' }, variants: [], alternatives: [] },
        { id: 'b', tool: 'get_user', args: { user_id: 'u_2' }, variants: [], alternatives: [] },
        { id: 'c', tool: 'get_user', args: { user_id: 'u_3' }, variants: [], alternatives: [] },
        {
          id: 'w',
          tool: 'write_result',
          args: { key: 'k', value: ['$a', '$b', '$c'] },
          variants: [],
          alternatives: [],
        },
      ],
      detours: [],
      final: 'done',
    };
    const batch: MessageParam[] = [
      start,
      {
        role: 'assistant',
        content: ['u_1', 'u_2', 'u_3'].map((id, i) => ({
          type: 'tool_use' as const,
          id: `b${i}`,
          name: 'get_user',
          input: { user_id: id },
        })),
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'b0',
            content: 'Error: get_user: request timed out after 10000 ms. Network timeout. May succeed if retried.',
            is_error: true,
          },
          { type: 'tool_result', tool_use_id: 'b1', content: JSON.stringify(U2) },
          { type: 'tool_result', tool_use_id: 'b2', content: JSON.stringify({ id: 'u_3' }) },
        ],
      },
    ];
    const batcher: Persona = { ...STRAIGHT, parallel: { probability: 1, max_calls: 8 } };
    for (const runSeed of [1, 2, 3, 4, 5, 6]) {
      const action = decide({
        state: readTranscript(batch, plan.steps),
        persona: batcher,
        plan,
        offered: new Set(['get_user', 'write_result']),
        helpTool: null,
        forcedTool: null,
        toolsDisabled: false,
        rng: stream({ sweepSeed: 0, scenario: 'policy-test', runSeed }, 'model', 1),
      });
      expect(action.kind === 'call' ? [action.input, action.more ?? []] : action).toEqual([{ user_id: 'u_1' }, []]);
    }
  });
});
