import { readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';
import { linkSpiralbenchPackage } from './spiralbench-package.js';

interface RunLine {
  readonly arm: string;
  readonly verdict: string;
  readonly tool_calls: number;
}

describe('spiralbench init', () => {
  it('scaffolds a scenario with its own tools module, and refuses to overwrite it unless --overwrite', () => {
    const dir = join(tempDir(), 'bench');
    const first = cli(['init', dir]);
    expect(first.status, first.stderr).toBe(0);
    const files = ['customer-note.yaml', 'tools.ts', 'README.md'].map((name) => join(dir, name));
    for (const file of files) expect(first.stdout).toContain(`wrote ${file}\n`);
    expect(first.stdout).toContain(`  spiralbench run -s ${files[0]} -a none,article -n 20\n`);
    // Outside a project that has spiralbench, the first step is to install it: tools.ts imports it.
    expect(first.stdout).toMatch(
      /^ {2}npm install --save-dev spiralbench {3}# in .*bench's project: tools\.ts imports it/m,
    );
    const validate = cli(['validate', files[0]!]);
    expect(validate.status).toBe(2);
    expect(validate.stderr).toMatch(
      /Cannot find (?:module|package) 'spiralbench'.* \(spiralbench must be installed where the module can import it: /,
    );
    expect(validate.stderr).not.toContain('?namespace=');
    expect(readFileSync(files[0]!, 'utf8')).toContain('tools_module: ./tools.ts\n');
    expect(readFileSync(files[1]!, 'utf8')).toMatch(/run: async \(input, world\)/);

    const again = cli(['init', dir]);
    expect(again.status).toBe(2);
    expect(again.stderr.split('\n')).toEqual([
      'error: 3 problems',
      ...files.map(
        (file) =>
          `  - ${file}: a new path; a file is already there, which this would replace: add --overwrite to replace it, or choose another folder`,
      ),
      '',
    ]);
    expect(cli(['init', dir, '--overwrite']).status).toBe(0);
    expect(cli(['init', dir, '--force']).status, '--force, its older name').toBe(0);
  });

  it('refuses a symbolic link where it would write, even one pointing nowhere', () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'missing.ts'), join(dir, 'tools.ts'));
    const result = cli(['init', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(dir, 'tools.ts')}: a new path or a regular file; this is a symbolic link (the link would be replaced, not what it points to): add --overwrite to replace it, or choose another folder\n`,
    );
    expect(readdirSync(dir)).toEqual(['tools.ts']);
  });

  // The scaffold's read tool is async: its runs succeed once the tool host awaits a tool's
  // promise (the async-tools change); before it, every run writes a wrong note.
  it('gives a scenario that validates and runs, with successes, importing defineTool from spiralbench', () => {
    const project = tempDir();
    linkSpiralbenchPackage(project);
    const dir = join(project, 'bench');
    const made = cli(['init', dir]);
    expect(made.status).toBe(0);
    // Installed where the project can import it: no install step is printed.
    expect(made.stdout).not.toContain('npm install');
    const scenario = join(dir, 'customer-note.yaml');
    const validate = cli(['validate', scenario]);
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toBe(`ok ${scenario}\n`);
    const out = join(project, 'results');
    const run = cli(['run', '-s', scenario, '-a', 'none,article', '-n', '20', '-w', '2', '-o', out]);
    expect(run.status, run.stderr).toBe(0);
    const lines = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunLine);
    expect(lines).toHaveLength(40);
    for (const arm of ['none', 'article']) {
      const runs = lines.filter((line) => line.arm === arm);
      expect(runs).toHaveLength(20);
      expect(runs.filter((line) => line.verdict === 'success').length, arm).toBeGreaterThanOrEqual(5);
      expect(runs.every((line) => line.tool_calls >= 1)).toBe(true);
    }
  });

  it('with --dataset, gives a scenario whose tasks are the rows of a CSV file, every row checked', () => {
    const project = tempDir();
    linkSpiralbenchPackage(project);
    const dir = join(project, 'bench');
    const init = cli(['init', dir, '--dataset']);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain(`wrote ${join(dir, 'customer-note.tasks.csv')}`);
    const scenario = join(dir, 'customer-note.yaml');
    expect(cli(['validate', scenario]).stdout).toBe(`ok ${scenario} (6 tasks, every row checked)\n`);
    const out = join(project, 'results');
    const run = cli(['run', '-s', scenario, '-a', 'none', '-n', '12', '-o', out]);
    expect(run.status, run.stderr).toBe(0);
    const tasks = readFileSync(join(out, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { task: string }).task);
    expect(tasks).toEqual(['c_1', 'c_2', 'c_3', 'c_4', 'c_5', 'c_6', 'c_1', 'c_2', 'c_3', 'c_4', 'c_5', 'c_6']);
  });
});
