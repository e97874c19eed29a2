import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR } from '../../scenarios/loader.js';
import { validateScenarioPaths } from './validate.js';

const GOOD = (id: string, persona = 'default') => `id: ${id}
title: Good
prompt: Fetch user u_1.
tools: [get_user, write_result]
budget_class: lookup
persona: ${persona}
world: { records: { users: { u_1: { id: u_1 } } } }
plan:
  steps:
    - { id: fetch, tool: get_user, args: { user_id: u_1 } }
    - { id: write, tool: write_result, args: { key: u_1, value: { user: $fetch } } }
  final: done
check: { outbox: [{ key: u_1, value: done }] }
`;

function folder(files: Record<string, string>, personas: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'spiralbench-validate-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  if (personas.length > 0) {
    mkdirSync(join(dir, 'personas'));
    for (const persona of personas)
      copyFileSync(join(SCENARIOS_DIR, 'personas', `${persona}.yaml`), join(dir, 'personas', `${persona}.yaml`));
  }
  return dir;
}

describe('validateScenarioPaths', () => {
  it('passes every bundled scenario', async () => {
    const report = await validateScenarioPaths([SCENARIOS_DIR]);
    expect(report.problems).toEqual([]);
    expect(report.ok.length).toBeGreaterThanOrEqual(11);
  });

  it('lists the good files of a folder, with personas from <folder>/personas', async () => {
    const dir = folder(
      { 'a.yaml': GOOD('a', 'stubborn'), 'b.yaml': GOOD('b', 'stubborn'), 'notes.txt': 'not a scenario' },
      ['stubborn'],
    );
    expect(await validateScenarioPaths([dir])).toEqual({
      ok: [join(dir, 'a.yaml'), join(dir, 'b.yaml')],
      problems: [],
    });
  });

  it('reports every problem of every bad file, each with file, field and expectation, and still lists the good ones', async () => {
    const dir = folder({
      'good.yaml': GOOD('good'),
      'one.yaml': GOOD('one')
        .replace('tools: [get_user, write_result]', 'tools: [get_user, write_result, get_users]')
        .replace('budget_class: lookup', 'budget_class: huge'),
      'two.yaml': GOOD('not-two')
        .replace('{ user: $fetch }', '{ user: [$fetched] }')
        .replace('persona: default', 'persona: nobody'),
    });
    const one = join(dir, 'one.yaml');
    const two = join(dir, 'two.yaml');
    const report = await validateScenarioPaths([dir]);
    expect(report.ok).toEqual([join(dir, 'good.yaml')]);
    expect(report.problems.map((p) => [p.source, p.field])).toEqual([
      [one, 'budget_class'],
      [one, 'tools.2'],
      [two, 'plan.steps.1.args.value.user.0'],
      [two, 'id'],
      [two, 'persona'],
    ]);
    expect(report.problems[1]?.expected).toContain("got 'get_users'");
    expect(report.problems[3]?.expected).toBe("the file name without .yaml ('two'), got 'not-two'");
    expect(report.problems[4]?.expected).toMatch(
      /^a persona in .*personas \(default, diligent, stubborn\), got 'nobody'$/,
    );
  });

  it('takes single files too, and says when a path holds nothing to validate', async () => {
    const dir = folder({ 'a.yaml': GOOD('a') });
    const empty = folder({});
    expect(await validateScenarioPaths([join(dir, 'a.yaml'), empty, join(dir, 'missing.yaml')])).toEqual({
      ok: [join(dir, 'a.yaml')],
      problems: [
        { source: empty, field: '', expected: 'a folder with at least one .yaml scenario file' },
        {
          source: join(dir, 'missing.yaml'),
          field: '',
          expected: 'a scenario file or a folder of them; nothing is there',
        },
      ],
    });
  });

  it('takes a .yml file whose id is its name without .yml, and says the extension it expected', async () => {
    const dir = folder({ 'short.yml': GOOD('short'), 'off.yml': GOOD('off.yml') });
    const report = await validateScenarioPaths([join(dir, 'short.yml'), join(dir, 'off.yml')]);
    expect(report.ok).toEqual([join(dir, 'short.yml')]);
    expect(report.problems.map((problem) => problem.expected)).toContain(
      "the file name without .yml ('off'), got 'off.yml'",
    );
  });

  it('reports a broken persona file once, however many scenarios use it', async () => {
    const dir = folder({ 'a.yaml': GOOD('a', 'odd'), 'b.yaml': GOOD('b', 'odd') });
    mkdirSync(join(dir, 'personas'));
    writeFileSync(join(dir, 'personas', 'odd.yaml'), 'id: odd\n');
    const { ok, problems } = await validateScenarioPaths([dir]);
    expect(ok).toEqual([]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.source === join(dir, 'personas', 'odd.yaml'))).toBe(true);
    expect(new Set(problems.map((p) => p.field)).size).toBe(problems.length);
  });
});
