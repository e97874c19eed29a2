import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { readScenarioFile, SCENARIOS_DIR, scenarioFromTexts } from './loader.js';
import { prepareScenarioFile, prepareScenarioTexts } from './tools-module.js';

/** The module a user's tools module imports defineTool from: loaded by tsx, a second copy of it. */
const DEFINE_TOOL = fileURLToPath(new URL('../tools/define-tool.ts', import.meta.url));

const READ_TOOL = `export const getTeam = defineTool({
  name: 'get_team',
  description: 'Fetch a team by id.',
  input_schema: { type: 'object', properties: { team_id: { type: 'string' } }, required: ['team_id'] },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 120,
  run: (input: Record<string, unknown>, world: { records: Record<string, Record<string, unknown>> }) =>
    world.records['teams']?.[String(input['team_id'])] ?? { found: false },
});
`;

const WRITE_TOOL = `export const saveTeam = defineTool({
  name: 'save_team',
  description: 'Save a team.',
  input_schema: { type: 'object', properties: { team: { type: 'object' } }, required: ['team'] },
  sideEffecting: true,
  concurrencySafe: false,
  run: (input: Record<string, unknown>, world: { outbox: Array<{ key: string; value: unknown }> }) => {
    world.outbox.push({ key: 'team', value: input['team'] });
    return { ok: true };
  },
});
`;

const SCENARIO = `id: team
title: Team
prompt: Fetch team t_1 and save it.
tools_module: ./tools.ts
tools: [get_team, save_team]
budget_class: standard
world: { records: { teams: { t_1: { id: t_1, name: Blue } } } }
plan:
  steps:
    - { id: get, tool: get_team, args: { team_id: t_1 } }
    - { id: save, tool: save_team, args: { team: $get } }
  final: Saved.
check: { outbox: [{ key: team, value: { id: t_1, name: Blue } }] }
`;

/** A folder holding team.yaml and its tools.ts; each test its own, as modules are imported once per path. */
function project(tools: string, scenario = SCENARIO): string {
  const dir = mkdtempSync(join(tmpdir(), 'spiralbench-tools-'));
  writeFileSync(join(dir, 'tools.ts'), `import { defineTool } from ${JSON.stringify(DEFINE_TOOL)};\n${tools}`);
  const path = join(dir, 'team.yaml');
  writeFileSync(path, scenario);
  return path;
}

async function problemsOf(path: string): Promise<Array<{ source: string; field: string; expected: string }>> {
  try {
    await prepareScenarioFile(path);
    readScenarioFile(path, SCENARIOS_DIR);
  } catch (error) {
    if (error instanceof UserInputError) return [...error.problems];
    throw error;
  }
  throw new Error('the scenario loaded');
}

describe('a scenario with a tools_module', () => {
  it('offers the TypeScript module’s tools, carries the module with its texts and hashes it', async () => {
    const path = project(READ_TOOL + WRITE_TOOL);
    await prepareScenarioFile(path);
    const { scenario, texts } = readScenarioFile(path, SCENARIOS_DIR);
    expect(scenario.tools.map((tool) => [tool.definition.name, tool.sideEffecting, tool.latencyMs])).toEqual([
      ['get_team', false, 120],
      ['save_team', true, 250],
    ]);
    const modulePath = join(path, '..', 'tools.ts');
    const moduleText = readFileSync(modulePath, 'utf8');
    expect(texts.toolsModule).toEqual({ path: modulePath, text: moduleText });
    const expected = createHash('sha256')
      .update(texts.text)
      .update('\0')
      .update(texts.persona.text)
      .update('\0')
      .update(moduleText)
      .digest('hex');
    expect(scenario.hash).toBe(expected);
    const world = { records: { teams: { t_1: { id: 't_1' } } }, outbox: [] };
    expect(scenario.tools[0]?.run({ team_id: 't_1' }, world)).toEqual({ id: 't_1' });
    // A worker builds it again from the texts, with the module as it was read.
    await prepareScenarioTexts(texts);
    expect(scenarioFromTexts(texts).tools.map((tool) => tool.definition.name)).toEqual(['get_team', 'save_team']);
  });

  it('hashes the files the module imports from the project: an edited helper is another scenario, and stale texts are refused', async () => {
    const path = project(`import { teamName } from './names.js';\n${READ_TOOL}${WRITE_TOOL}`);
    const helper = join(path, '..', 'names.ts');
    writeFileSync(helper, "export const teamName = 'Blue';\n");
    await prepareScenarioFile(path);
    const { scenario, texts } = readScenarioFile(path, SCENARIOS_DIR);
    expect(texts.toolsModule?.imports).toEqual([{ path: helper, text: "export const teamName = 'Blue';\n" }]);
    const edited = {
      ...texts,
      toolsModule: { ...texts.toolsModule!, imports: [{ path: helper, text: "export const teamName = 'Red';\n" }] },
    };
    // The helper's text is in the hash, by its path from the module's folder: an edit to it is another sweep.
    const expected = createHash('sha256')
      .update(texts.text)
      .update('\0')
      .update(texts.persona.text)
      .update('\0')
      .update(texts.toolsModule!.text)
      .update('\0')
      .update('names.ts')
      .update('\0')
      .update("export const teamName = 'Blue';\n")
      .digest('hex');
    expect(scenario.hash).toBe(expected);
    // A worker whose import of the helper would differ from what the main thread read refuses to run it.
    await expect(prepareScenarioTexts(edited)).rejects.toThrow(
      /names\.ts' as it was when the sweep read it; it has changed since/,
    );
  });

  it('refuses to build from texts whose module has changed since they were read', async () => {
    const path = project(READ_TOOL + WRITE_TOOL);
    await prepareScenarioFile(path);
    const { texts } = readScenarioFile(path, SCENARIOS_DIR);
    const changed = { ...texts, toolsModule: { path: texts.toolsModule!.path, text: `${texts.toolsModule!.text}//` } };
    await expect(prepareScenarioTexts(changed)).rejects.toThrow(
      `${path}: tools_module: '${texts.toolsModule!.path}' as it was when the sweep read it; it has changed since (run again)`,
    );
  });

  it('names the module’s tools when `tools` names one it lacks', async () => {
    const path = project(
      READ_TOOL + WRITE_TOOL,
      SCENARIO.replace('tools: [get_team, save_team]', 'tools: [get_teams, save_team]'),
    );
    const problems = await problemsOf(path);
    expect(problems).toContainEqual({
      source: path,
      field: 'tools.0',
      expected: expect.stringMatching(
        /^a catalogue tool \(get_user, .*\) or a tool of tools_module '.*tools\.ts' \(get_team, save_team\), got 'get_teams'$/,
      ),
    });
  });

  it('says when the module is missing', async () => {
    const path = project(READ_TOOL, SCENARIO.replace('./tools.ts', './missing.ts'));
    expect(await problemsOf(path)).toEqual([
      {
        source: path,
        field: 'tools_module',
        expected: `a module file that exists; '${join(path, '..', 'missing.ts')}' does not`,
      },
    ]);
  });

  it('says when the module exports no tools', async () => {
    const path = project('export const answer = 42;\n');
    expect(await problemsOf(path)).toEqual([
      {
        source: path,
        field: 'tools_module',
        expected: `a module that exports tools made with defineTool; '${join(path, '..', 'tools.ts')}' exports none`,
      },
    ]);
  });

  it('refuses a tool named like a catalogue tool, and two tools of one name', async () => {
    const clash = project(READ_TOOL.replace("'get_team'", "'get_user'"));
    expect(await problemsOf(clash)).toEqual([
      {
        source: clash,
        field: 'tools_module',
        expected: `tools named apart from the catalogue's; '${join(clash, '..', 'tools.ts')}' exports 'get_user', a catalogue tool (rename yours)`,
      },
    ]);
    const twice = project(READ_TOOL + READ_TOOL.replace('getTeam', 'getTeamAgain'));
    expect((await problemsOf(twice))[0]?.expected).toBe(
      `tools with distinct names; '${join(twice, '..', 'tools.ts')}' exports two tools named 'get_team'`,
    );
  });

  it('passes on a bad tool definition with the tool, the field and the expectation', async () => {
    const path = project(READ_TOOL.replace('latencyMs: 120', 'latencyMs: -1'));
    expect(await problemsOf(path)).toEqual([
      {
        source: path,
        field: 'tools_module',
        expected: `a module that loads; '${join(path, '..', 'tools.ts')}' failed: defineTool('get_team'): latencyMs: a whole number of ms, 0 or more, got -1`,
      },
    ]);
  });

  it('is refused, not run without its tools, where the module was not imported first', () => {
    const path = project(READ_TOOL + WRITE_TOOL);
    expect(() => readScenarioFile(path, SCENARIOS_DIR)).toThrow(
      `${path}: tools_module: a scenario without a tools module here`,
    );
  });
});
