import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { filledScenario, placeholderProblems, readDatasetRows, rowIndexOfSeed } from './dataset.js';
import { scenarioForSeed } from './dataset-task.js';
import { loadScenarioFile, readScenarioFile, SCENARIOS_DIR, scenarioFromTexts } from './loader.js';

const EXAMPLE = new URL('../../examples/datasets/user-exports.yaml', import.meta.url).pathname;

/** A folder holding the reference scenario made a dataset of `rows` (JSON Lines), with the text edited by `edit`. */
function datasetScenario(rows: string, edit: (text: string) => string = (text) => text): string {
  const dir = mkdtempSync(join(tmpdir(), 'spiralbench-dataset-'));
  const reference = readFileSync(join(SCENARIOS_DIR, 'fetch-transform-write.yaml'), 'utf8')
    .replace('id: fetch-transform-write', 'id: lookups\ndataset: { file: rows.jsonl, task_id: user }')
    .replace('Fetch the user record for user u_1042', 'Fetch the user record for user {{user}}')
    .replace('args: { user_id: u_1042 }', 'args: { user_id: "{{user}}" }');
  writeFileSync(join(dir, 'lookups.yaml'), edit(reference));
  writeFileSync(join(dir, 'rows.jsonl'), rows);
  return join(dir, 'lookups.yaml');
}

describe('dataset rows', () => {
  it('reads JSON Lines and CSV, naming the task by its column or its row number', () => {
    const jsonl = readDatasetRows('t.jsonl', '{"id":"a","n":1}\n\n{"id":"b","n":{"x":2}}\n', 'id');
    expect(jsonl.problems).toEqual([]);
    expect(jsonl.rows.map((row) => [row.taskId, row.line])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
    const csv = readDatasetRows('t.csv', 'id,name\na,"Ada, Countess"\nb,Grace\n', undefined);
    expect(csv.rows.map((row) => [row.taskId, row.values.name, row.line])).toEqual([
      ['1', 'Ada, Countess', 2],
      ['2', 'Grace', 3],
    ]);
  });

  it('names the file and line of every bad row, a repeated task id and a missing id', () => {
    const { problems } = readDatasetRows('t.jsonl', '{"id":"a"}\nnot json\n[1]\n{"id":"a"}\n{"x":1}\n', 'id');
    expect(problems.map((problem) => `${problem.source} ${problem.field}`)).toEqual([
      't.jsonl:2 ',
      't.jsonl:3 ',
      't.jsonl:4 id',
      't.jsonl:5 id',
    ]);
    expect(readDatasetRows('t.txt', 'a', undefined).problems[0]?.expected).toBe('a .jsonl or .csv file of task rows');
    expect(readDatasetRows('t.csv', '', undefined).problems[0]?.expected).toBe('at least one row (a task)');
  });

  it('fills a whole placeholder with the value as it is, one in text with its text, keys too', () => {
    const row = { taskId: '1', line: 1, values: { id: 'u_1', record: { name: 'Ada' }, n: 3 } };
    expect(
      filledScenario(
        {
          prompt: 'Fetch {{id}} ({{ record }}), {{n}} times; {{unknown}} stays',
          world: { users: { '{{id}}': '{{record}}' } },
          check: { outbox: [{ key: '{{id}}', value: '{{n}}' }] },
          title: '{{id}}',
        },
        row,
      ),
    ).toEqual({
      prompt: 'Fetch u_1 ({"name":"Ada"}), 3 times; {{unknown}} stays',
      world: { users: { u_1: { name: 'Ada' } } },
      check: { outbox: [{ key: 'u_1', value: 3 }] },
      // Not a field rows fill: left as written (placeholderProblems refuses it).
      title: '{{id}}',
    });
  });

  it('refuses a placeholder outside the filled fields, or naming a column the rows lack', () => {
    const problems = placeholderProblems('s.yaml', { title: 'For {{id}}', prompt: 'Fetch {{idd}}' }, 'rows.csv', [
      'id',
    ]);
    expect(problems).toEqual([
      {
        source: 's.yaml',
        field: 'title',
        expected: "no {{id}}: a dataset's rows fill only system, prompt, history, world, plan, check",
      },
      { source: 's.yaml', field: 'prompt', expected: '{{idd}} naming a column of rows.csv (id)' },
    ]);
  });

  it('cycles seeds through the rows, seed 1 the first, whatever the seed', () => {
    expect([1, 2, 3, 4, 0, -1].map((seed) => rowIndexOfSeed(seed, 3))).toEqual([0, 1, 2, 0, 2, 1]);
  });
});

describe('a dataset scenario', () => {
  it('is one task a row: each seed plays its row, judged on its own check', () => {
    const scenario = loadScenarioFile(EXAMPLE);
    expect(scenario.dataset?.tasks).toHaveLength(60);
    const third = scenarioForSeed(scenario, 3);
    expect(third.task).toBe(scenario.dataset!.tasks[2]!.id);
    expect(third.prompt).toContain(`user ${third.task}`);
    expect(third.check.outbox[0]?.key).toBe(third.task);
    expect(third.plan.steps[0]?.args).toEqual({ user_id: third.task });
    expect(scenarioForSeed(scenario, 63)).toBe(third);
    // The scenario itself reads as its first task, so what reads it without a seed sees a whole task.
    expect(scenario.prompt).toBe(scenarioForSeed(scenario, 1).prompt);
    expect(scenarioForSeed(third, 5)).toBe(third);
  });

  it('is rebuilt from its texts in a worker, and its hash changes with its rows', () => {
    const { scenario, texts } = readScenarioFile(EXAMPLE);
    const again = scenarioFromTexts(texts);
    expect(again.dataset).toEqual(scenario.dataset);
    expect(again.hash).toBe(scenario.hash);
    const one = datasetScenario('{"user":"u_1042"}\n');
    const other = datasetScenario('{"user":"u_1041"}\n');
    expect(loadScenarioFile(one).hash).not.toBe(loadScenarioFile(other).hash);
  });

  it('checks every row as a scenario file, naming the row, and counts the rows past the first five', () => {
    const rows = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify({ user: `u_${1042 + i}`, tool: i === 0 ? 'get_user' : 'get_usr' }),
    ).join('\n');
    let error: unknown;
    try {
      loadScenarioFile(datasetScenario(rows, (text) => text.replace('tool: get_user', 'tool: "{{tool}}"')));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UserInputError);
    const lines = (error as UserInputError).message.split('\n');
    expect(lines[0]).toMatch(/rows\.jsonl:2: plan\.steps\.0\.tool: /);
    expect(lines.at(-1)).toMatch(/rows\.jsonl: rows that fill the scenario validly \(2 more rows of 8 do not/);
  });

  it('refuses a dataset file that is missing, naming the scenario and the field', () => {
    const path = datasetScenario('{"user":"u_1042"}\n', (text) => text.replace('file: rows.jsonl', 'file: gone.jsonl'));
    expect(() => loadScenarioFile(path)).toThrow(/lookups\.yaml: dataset\.file: .*gone\.jsonl: file not found/);
  });

  it('refuses a row lacking a column, a plan value read as a reference, an empty id and an unquoted placeholder', () => {
    const problems = (rows: string, edit?: (text: string) => string): string[] => {
      try {
        loadScenarioFile(datasetScenario(rows, edit));
      } catch (error) {
        if (error instanceof UserInputError) return error.message.split('\n').map((line) => line.replace(/^.*\//, ''));
        throw error;
      }
      return [];
    };
    const named = (text: string) => text.replace('{{user}}, transform it', '{{user}} ({{name}}), transform it');
    expect(problems('{"user":"u_1042","name":"Ada"}\n{"user":"u_1041"}\n', named)).toEqual([
      "rows.jsonl:2: name: a value: the scenario's prompt names {{name}}",
    ]);
    expect(problems('{"user":"u_1042"}\n{"user":"$fetch"}\n')[0]).toBe(
      "rows.jsonl:2: plan.steps.0.args.user_id: no text starting with $ from the row ('$fetch'): in a plan, $ starts a reference to an earlier step's result",
    );
    // Data deep in a row's object is data too, wherever the plan puts it.
    const tagged = (text: string) =>
      text.replace('args: { user_id: "{{user}}" }', 'args: { user_id: "{{user}}", tag: "{{meta}}" }');
    expect(problems('{"user":"u_1042","meta":{"from":"$fetch.email"}}\n', tagged)[0]).toBe(
      "rows.jsonl:1: plan.steps.0.args.tag.from: no text starting with $ from the row ('$fetch.email'): in a plan, $ starts a reference to an earlier step's result",
    );
    // A key of its own left unquoted, and a value: both refused.
    const keyed = (text: string) => text.replace('    users:\n', '    users:\n      {{user}}: { id: x }\n');
    expect(problems('{"user":"u_1042"}\n', keyed)[0]).toMatch(
      /lookups\.yaml: world\.records\.users: "\{\{user\}\}" in quotes/,
    );
    expect(problems('{"user":"u_1042"}\n{"user":" "}\n')[0]).toMatch(
      /rows\.jsonl:2: user: the task's id, text or a number, not empty/,
    );
    expect(
      problems('{"user":"u_1042"}\n', (text) =>
        text.replace('args: { user_id: "{{user}}" }', 'args: { user_id: {{user}} }'),
      )[0],
    ).toBe(
      'lookups.yaml: plan.steps.0.args.user_id: "{{user}}" in quotes: unquoted, YAML reads {{user}} as a mapping, not a placeholder',
    );
  });

  it('reports a problem of the file once, against the file, and types a field a row fills whole', () => {
    const rows = '{"user":"u_1042","history":[]}\n{"user":"u_1041","history":[]}\n';
    let message = '';
    try {
      loadScenarioFile(
        datasetScenario(rows, (text) =>
          text.replace('id: lookups', 'id: lookup').replace('title:', 'bogus_key: 1\ntitle:'),
        ),
      );
    } catch (error) {
      message = (error as Error).message;
    }
    // Once each, against the file: every row has them, so no row is to blame.
    expect(
      message
        .split('\n')
        .map((line) => line.replace(/^.*\//, ''))
        .sort(),
    ).toEqual([
      'lookups.yaml: Unrecognized key: "bogus_key"',
      "lookups.yaml: id: the file name without .yaml ('lookups'), got 'lookup'",
    ]);
    const typed = loadScenarioFile(
      datasetScenario(rows, (text) => text.replace('prompt: >', 'history: "{{history}}"\nprompt: >')),
    );
    expect(scenarioForSeed(typed, 2).history).toEqual([]);
  });
});
