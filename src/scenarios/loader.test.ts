import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import {
  listScenarioIds,
  loadScenario,
  loadScenarioFile,
  readScenarioFile,
  SCENARIOS_DIR,
  scenarioFromTexts,
} from './loader.js';

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spiralbench-loader-'));
  mkdirSync(join(dir, 'personas'));
  copyFileSync(join(SCENARIOS_DIR, 'personas', 'default.yaml'), join(dir, 'personas', 'default.yaml'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeScenario(id: string, text: string): string {
  const path = join(dir, `${id}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** The UserInputError a call throws (fails the test when it throws nothing or something else). */
function inputError(fn: () => unknown): UserInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UserInputError) return error;
    throw error;
  }
  throw new Error('expected a UserInputError, nothing was thrown');
}

const VALID = `id: tiny
title: Tiny
prompt: Fetch user u_1.
tools: [get_user, transform_record]
budget_class: lookup
world: { records: { users: { u_1: { id: u_1, name: A B, email: a@b.c } } } }
faults: { rates: { timeout: 0.2 } }
plan:
  steps:
    - { id: fetch, tool: get_user, args: { user_id: u_1 } }
    - { id: transform, tool: transform_record, args: { record: $fetch } }
  final: done
check: { outbox: [{ key: u_1, value: done }] }
`;

describe('loadScenario', () => {
  it('loads the bundled reference scenario with its persona and budget class', () => {
    const scenario = loadScenario('fetch-transform-write');
    expect(scenario.id).toBe('fetch-transform-write');
    expect(scenario.budgetClass).toBe('standard');
    expect(scenario.toolBudget).toBe(15);
    expect(scenario.tools.map((tool) => tool.definition.name)).toEqual([
      'get_user',
      'search_users',
      'transform_record',
      'write_result',
      'read_result',
    ]);
    expect(scenario.faults).toEqual({
      rates: { timeout: 0.3, malformed_json: 0.1, rate_limit: 0.05 },
      tools: {},
      unauthorizedAfter: {},
      retryAfterMs: 2000,
      timeoutMs: 10_000,
      data: {},
    });
    expect(scenario.impossible).toBe(false);
    expect(scenario.check.impossible).toBe(false);
    expect(scenario.persona.id).toBe('default');
    expect(scenario.plan.steps.map((step) => step.id)).toEqual(['fetch', 'transform', 'write']);
    expect(scenario.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names --scenario and the known ids for an unknown id', () => {
    const error = inputError(() => loadScenario('nope'));
    expect(listScenarioIds()).toContain('fetch-transform-write');
    expect(error.problems).toEqual([
      { source: '--scenario', field: '', expected: `one of ${listScenarioIds().join(', ')}; got 'nope'` },
    ]);
    expect(error.message).toContain('--scenario');
    expect(error.message).toContain('fetch-transform-write');
  });
});

describe('loadScenarioFile', () => {
  it('loads a valid file from another folder with the persona from <dir>/personas', () => {
    const scenario = loadScenarioFile(writeScenario('tiny', VALID), dir);
    expect(scenario.toolBudget).toBe(5);
    expect(scenario.system).toBe('You are an agent that completes tasks by calling tools.');
    expect(scenario.faults).toEqual({
      rates: { timeout: 0.2 },
      tools: {},
      unauthorizedAfter: {},
      retryAfterMs: 1000,
      timeoutMs: 10_000,
      data: {},
    });
    // No model_faults: the model API never fails.
    expect(scenario.modelFaults).toEqual({
      rates: {},
      persistence: 0,
      models: null,
      retryAfterMs: 5000,
      timeoutMs: 600_000,
      configChange: null,
    });
  });

  it("loads model faults and checks their rates like the tools' rates", () => {
    const withFaults = VALID.replace('id: tiny', 'id: model-faulty').replace(
      'plan:',
      'model_faults: { rates: { overloaded: 0.1, server_error: 0.05 }, persistence: 0.7, models: [claude-sonnet-5-5], retry_after_ms: 8000 }\nplan:',
    );
    expect(loadScenarioFile(writeScenario('model-faulty', withFaults), dir).modelFaults).toEqual({
      rates: { overloaded: 0.1, server_error: 0.05 },
      persistence: 0.7,
      models: ['claude-sonnet-5-5'],
      retryAfterMs: 8000,
      timeoutMs: 600_000,
      configChange: null,
    });
    const bad = VALID.replace('id: tiny', 'id: model-bad').replace(
      'plan:',
      'model_faults: { rates: { overloaded: 0.7, timeout: 0.6, teleport: 0.1 }, persistence: 2 }\nplan:',
    );
    const error = inputError(() => loadScenarioFile(writeScenario('model-bad', bad), dir));
    expect(error.problems.map((p) => p.field)).toEqual([
      'model_faults.rates',
      'model_faults.persistence',
      'model_faults.rates',
    ]);
    expect(error.problems.map((p) => p.expected)).toContain('fault rates that add up to at most 1, got 1.3');
  });

  it('loads a configuration change to a model the API does not know, and refuses a call before the first', () => {
    const changing = VALID.replace('id: tiny', 'id: model-config').replace(
      'plan:',
      'model_faults: { config_change: { at_call: 3, model: claude-sonet-5-5 } }\nplan:',
    );
    expect(loadScenarioFile(writeScenario('model-config', changing), dir).modelFaults.configChange).toEqual({
      atCall: 3,
      model: 'claude-sonet-5-5',
    });
    const known = VALID.replace('id: tiny', 'id: model-known').replace(
      'plan:',
      'model_faults: { config_change: { at_call: 0, model: claude-haiku-5-5 } }\nplan:',
    );
    const error = inputError(() => loadScenarioFile(writeScenario('model-known', known), dir));
    expect(error.problems.map((p) => [p.field, p.expected])).toEqual([
      ['model_faults.config_change.at_call', expect.stringContaining('>=1')],
    ]);
  });

  it('loads a stream cut rate, counted with the others toward the total', () => {
    const cutting = VALID.replace('id: tiny', 'id: model-cut').replace(
      'plan:',
      'model_faults: { rates: { stream_cut: 0.2, overloaded: 0.1 } }\nplan:',
    );
    expect(loadScenarioFile(writeScenario('model-cut', cutting), dir).modelFaults.rates).toEqual({
      stream_cut: 0.2,
      overloaded: 0.1,
    });
    const tooMuch = VALID.replace('id: tiny', 'id: model-cut-bad').replace(
      'plan:',
      'model_faults: { rates: { stream_cut: 0.8, overloaded: 0.3 } }\nplan:',
    );
    const error = inputError(() => loadScenarioFile(writeScenario('model-cut-bad', tooMuch), dir));
    expect(error.problems.map((p) => p.expected)).toContain('fault rates that add up to at most 1, got 1.1');
  });

  it('loads malformed-argument rates for the openai-chat api, and refuses them elsewhere or over 1', () => {
    const chat = VALID.replace('id: tiny', 'id: chat-ok').replace(
      'plan:',
      'api: openai-chat\nreply_faults: { malformed_arguments: { fenced: 0.1, truncated: 0.05 } }\nplan:',
    );
    const scenario = loadScenarioFile(writeScenario('chat-ok', chat), dir);
    expect([scenario.api, scenario.replyFaults]).toEqual([
      'openai-chat',
      { malformed_arguments: { fenced: 0.1, truncated: 0.05 } },
    ]);
    expect(loadScenarioFile(writeScenario('tiny', VALID), dir).replyFaults).toEqual({ malformed_arguments: {} });
    const wrongApi = VALID.replace('id: tiny', 'id: chat-bad').replace(
      'plan:',
      'reply_faults: { malformed_arguments: { prose: 0.7, truncated: 0.6, garbled: 0.1 } }\nplan:',
    );
    const error = inputError(() => loadScenarioFile(writeScenario('chat-bad', wrongApi), dir));
    expect(error.problems.map((p) => `${p.field}: ${p.expected}`)).toEqual([
      expect.stringMatching(/^reply_faults\.malformed_arguments: Unrecognized key: "garbled"/),
      'reply_faults.malformed_arguments: fault rates that add up to at most 1, got 1.3',
      'reply_faults.malformed_arguments: api: openai-chat (arguments are text only there), got api: anthropic',
    ]);
  });

  it('reports every schema problem at once, each with the file and the field', () => {
    const path = writeScenario(
      'schema-bad',
      VALID.replace('id: tiny', 'id: schema-bad')
        .replace('prompt: Fetch user u_1.\n', '')
        .replace('timeout: 0.2', 'timeout: 1.5'),
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => [p.source, p.field])).toEqual([
      [path, 'prompt'],
      [path, 'faults.rates.timeout'],
    ]);
    expect(error.message).toContain(`${path}: faults.rates.timeout: `);
  });

  it('reports every cross-reference problem at once, each with the file and the field', () => {
    const path = writeScenario(
      'refs-bad',
      VALID.replace('id: tiny', 'id: refs-bad')
        .replace('tools: [get_user, transform_record]', 'tools: [frobnicate, get_user, transform_record]')
        .replace(
          '- { id: fetch, tool: get_user, args: { user_id: u_1 } }\n    - { id: transform, tool: transform_record, args: { record: $fetch } }',
          '- { id: transform, tool: transform_record, args: { record: $fetch } }\n    - { id: fetch, tool: get_user, args: { user_id: u_1 } }',
        ),
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => [p.source, p.field])).toEqual([
      [path, 'tools.0'],
      [path, 'plan.steps.0.args.record'],
    ]);
    expect(error.problems[0]?.expected).toContain("got 'frobnicate'");
    expect(error.problems[1]?.expected).toBe(
      "a reference to an earlier step ($<step id> or $<step id>.<field>...), got '$fetch'",
    );
  });

  // BUG (src/scenarios/loader.ts:106-109): the cross-field checks (referenceProblems) only
  // run once the schema parse succeeded, so a file with both kinds of problem reports only
  // the schema ones; the user fixes them and only then learns about the rest. The function's
  // own contract (line 103) is "every problem is reported at once".
  it('reports schema and cross-reference problems of one file together', () => {
    const path = writeScenario(
      'many-bad',
      `id: many-bad
title: Many problems
tools: [frobnicate, get_user, transform_record]
budget_class: standard
world: { records: {} }
faults: { rates: { timeout: 1.5 } }
plan:
  steps:
    - { id: transform, tool: transform_record, args: { record: $fetch } }
    - { id: fetch, tool: get_user, args: { user_id: u_1 } }
  final: done
check: { outbox: [] }
`,
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.every((p) => p.source === path)).toBe(true);
    expect(error.problems.map((p) => p.field).sort()).toEqual([
      'faults.rates.timeout',
      'plan.steps.0.args.record',
      'prompt',
      'tools.0',
    ]);
  });

  it('gives one problem naming the file for invalid YAML', () => {
    const path = writeScenario('broken', 'id: broken\ntitle: [unclosed\n  - nope: : :\n');
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.source).toBe(path);
    expect(error.problems[0]?.field).toBe('');
    expect(error.problems[0]?.expected).toMatch(/^valid YAML \(/);
    expect(error.message.startsWith(`${path}: valid YAML (`)).toBe(true);
  });

  it('names the file when it does not exist', () => {
    const path = join(dir, 'missing.yaml');
    expect(inputError(() => loadScenarioFile(path, dir)).problems).toEqual([
      { source: path, field: '', expected: 'file not found or not readable' },
    ]);
  });

  it('requires the id to match the file name', () => {
    const path = writeScenario('other-name', VALID);
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => p.field)).toEqual(['id']);
  });

  it('resolves impossible, and per-tool faults into rates and a 401 schedule', () => {
    const path = writeScenario(
      'faulty',
      VALID.replace('id: tiny', 'id: faulty')
        .replace('budget_class: lookup', 'budget_class: lookup\nimpossible: true')
        .replace('check: { outbox: [{ key: u_1, value: done }] }', 'check: { outbox: [] }')
        .replace(
          'faults: { rates: { timeout: 0.2 } }',
          'faults: { rates: { timeout: 0.2 }, tools: { get_user: { unauthorized_after: 2 }, transform_record: { server_error: 0.5, unauthorized_after: 0 } } }',
        ),
    );
    const scenario = loadScenarioFile(path, dir);
    expect(scenario.impossible).toBe(true);
    expect(scenario.check).toEqual({ outbox: [], forbidden: [], impossible: true });
    // An entry holding only the schedule keeps the scenario-wide rates for that tool.
    expect(scenario.faults.tools).toEqual({ transform_record: { server_error: 0.5 } });
    expect(scenario.faults.unauthorizedAfter).toEqual({ get_user: 2, transform_record: 0 });
  });

  it('refuses an empty expected outbox unless the task is marked impossible: doing nothing would succeed', () => {
    const path = writeScenario(
      'idle',
      VALID.replace('id: tiny', 'id: idle').replace(
        'check: { outbox: [{ key: u_1, value: done }] }',
        'check: { outbox: [] }',
      ),
    );
    expect(inputError(() => loadScenarioFile(path, dir)).problems).toEqual([
      { source: path, field: 'check.outbox', expected: expect.stringContaining('impossible: true') },
    ]);
  });

  it('checks $step references nested anywhere in arguments, and parts of results', () => {
    const path = writeScenario(
      'nested',
      VALID.replace('id: tiny', 'id: nested').replace(
        '- { id: transform, tool: transform_record, args: { record: $fetch } }',
        '- { id: transform, tool: transform_record, args: { record: { name: $fetch.name, tags: [x, $later], deep: [{ a: $Fetch }] } } }',
      ),
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => [p.field, p.expected])).toEqual([
      [
        'plan.steps.1.args.record.tags.1',
        "a reference to an earlier step ($<step id> or $<step id>.<field>...), got '$later'",
      ],
      [
        'plan.steps.1.args.record.deep.0.a',
        "a reference to an earlier step ($<step id> or $<step id>.<field>...), got '$Fetch'",
      ],
    ]);
  });

  it("refuses fault rates over 1, duplicate step ids, a detour that is a step's own call, and one that would read as a later step", () => {
    const path = writeScenario(
      'cross-bad',
      VALID.replace('id: tiny', 'id: cross-bad')
        .replace(
          'faults: { rates: { timeout: 0.2 } }',
          'faults: { rates: { timeout: 0.6, server_error: 0.6 }, tools: { get_user: { timeout: 0.9, rate_limit: 0.2 } } }',
        )
        .replace('- { id: transform, tool: transform_record', '- { id: fetch, tool: transform_record')
        .replace(
          '  final: done',
          '  detours: [{ tool: get_user, args: { user_id: u_1 } }, { tool: transform_record, args: { record: {} } }]\n  final: done',
        ),
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => [p.field, p.expected])).toEqual([
      ['plan.steps.1.id', "an id no earlier step has, got 'fetch' again"],
      ['faults.rates', 'fault rates that add up to at most 1, got 1.2'],
      ['faults.tools.get_user', 'fault rates that add up to at most 1, got 1.1'],
      [
        'plan.detours.0',
        "a call off the plan; this one is the call of step 'fetch' itself (re-check another way: another record, query, tool or form of the read)",
      ],
      [
        'plan.detours.1',
        "a call off the plan; this one would be read as step 'fetch' (use another tool, or for a tool steps share, arguments of the first step only)",
      ],
    ]);
  });

  it('refuses data faults on a tool the scenario lacks, an attack asking for a tool it lacks, and a forbidden write the expected outbox holds', () => {
    const path = writeScenario(
      'data-bad',
      VALID.replace('id: tiny', 'id: data-bad')
        .replace(
          'faults: { rates: { timeout: 0.2 } }',
          'faults: { rates: { timeout: 0.2 }, data: { get_user: { injected_instructions: { rate: 1, goal: { tool: send_email, input: { to: x@y.z } } } }, list_users: { empty_result: { rate: 0.5 } } } }',
        )
        .replace(
          'check: { outbox: [{ key: u_1, value: done }] }',
          'check: { outbox: [{ key: u_1, value: done }], forbidden: [{ key: u_1, because: a clash }] }',
        ),
    );
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems.map((p) => [p.field, p.expected])).toEqual([
      [
        'faults.data.get_user.injected_instructions.goal.tool',
        "one of the scenario's tools (an action the agent could take)",
      ],
      ['faults.data.list_users', "one of the scenario's tools"],
      ['check.forbidden.0', 'a write the expected outbox does not hold (this rule matches one of check.outbox)'],
    ]);
  });

  it('names the persona field for an unknown persona, and reports a broken persona file by its own path', () => {
    const unknown = writeScenario(
      'ghostly',
      VALID.replace('id: tiny', 'id: ghostly').replace('budget_class: lookup', 'budget_class: lookup\npersona: ghost'),
    );
    expect(inputError(() => loadScenarioFile(unknown, dir)).problems).toEqual([
      { source: unknown, field: 'persona', expected: `a persona in ${join(dir, 'personas')} (default), got 'ghost'` },
    ]);
    const personaPath = join(dir, 'personas', 'broken.yaml');
    writeFileSync(personaPath, 'id: broken\nretry: { same: -1 }\n');
    const broken = writeScenario(
      'brokenly',
      VALID.replace('id: tiny', 'id: brokenly').replace(
        'budget_class: lookup',
        'budget_class: lookup\npersona: broken',
      ),
    );
    const problems = inputError(() => loadScenarioFile(broken, dir)).problems;
    expect(problems.length).toBeGreaterThan(1);
    expect(problems.every((p) => p.source === personaPath)).toBe(true);
    expect(problems.map((p) => p.field)).toContain('retry.same');
    rmSync(personaPath);
  });
});

describe('reading scenario files with bounds', () => {
  // How long it takes is measured by `npm run bench:inputs`, not asserted here: the suite runs on loaded machines.
  it('loads a scenario whose world holds 40,000 records', () => {
    const records = Array.from({ length: 40_000 }, (_, i) => `      x_${i}: { id: x_${i} }`).join('\n');
    const path = writeScenario(
      'crowded',
      VALID.replace('id: tiny', 'id: crowded').replace(
        'world: { records: { users: { u_1: { id: u_1, name: A B, email: a@b.c } } } }',
        `world:\n  records:\n    users:\n      u_1: { id: u_1, name: A B, email: a@b.c }\n${records}`,
      ),
    );
    const scenario = loadScenarioFile(path, dir);
    expect(Object.keys(scenario.world.records['users'] ?? {})).toHaveLength(40_001);
  });

  it('refuses a scenario nested past 64 levels with one problem naming the file', () => {
    const path = writeScenario('deep', `${VALID.replace('id: tiny', 'id: deep')}extra: ${'['.repeat(100_000)}\n`);
    const error = inputError(() => loadScenarioFile(path, dir));
    expect(error.problems).toEqual([
      {
        source: path,
        field: '',
        expected: expect.stringMatching(/^valid YAML \(maps and lists nested at most 64 deep; deeper at line 14, /),
      },
    ]);
  });

  it('refuses a persona file over 4 MiB by its own path', () => {
    const personaPath = join(dir, 'personas', 'huge.yaml');
    writeFileSync(personaPath, `# ${'x'.repeat(78)}\n`.repeat(53_000));
    const path = writeScenario(
      'hugely',
      VALID.replace('id: tiny', 'id: hugely').replace('budget_class: lookup', 'budget_class: lookup\npersona: huge'),
    );
    expect(inputError(() => loadScenarioFile(path, dir)).problems).toEqual([
      { source: personaPath, field: '', expected: 'a file of at most 4 MiB (4194304 bytes); this one is larger' },
    ]);
    rmSync(personaPath);
  });

  it('builds the same scenario again from the texts it was read from, whatever the files hold since', () => {
    const path = writeScenario('kept', VALID.replace('id: tiny', 'id: kept'));
    const { scenario, texts } = readScenarioFile(path, dir);
    expect(texts.persona).toMatchObject({ id: 'default', path: join(dir, 'personas', 'default.yaml') });
    writeFileSync(path, 'id: kept\n');
    const again = scenarioFromTexts(texts);
    expect(again.hash).toBe(scenario.hash);
    expect(again).toEqual(scenario);
  });
});

describe('the bundled scenarios', () => {
  it('all load, each with the schema line for editors and a header comment saying what it measures', () => {
    const ids = listScenarioIds();
    expect(ids.length).toBeGreaterThanOrEqual(11);
    for (const id of ids) {
      const scenario = loadScenario(id);
      const text = readFileSync(join(SCENARIOS_DIR, `${id}.yaml`), 'utf8').split('\n');
      expect(text[0], id).toBe('# yaml-language-server: $schema=./scenario.schema.json');
      expect(text[1]?.startsWith('# '), id).toBe(true);
      expect(scenario.plan.steps.length, id).toBeGreaterThan(0);
    }
  });

  it('declare the impossible tasks', () => {
    expect(listScenarioIds().filter((id) => loadScenario(id).impossible)).toEqual([
      'auth-revoked-mid-task',
      'dead-end-search',
    ]);
  });
});
