import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';
import { linkSpiralbenchPackage } from './spiralbench-package.js';

/** init's scaffold with its read made synchronous: what a sweep needs of a tools module, whichever way run returns. */
function syncToolsProject(): { project: string; scenario: string; tools: string } {
  const project = tempDir();
  linkSpiralbenchPackage(project);
  const dir = join(project, 'bench');
  expect(cli(['init', dir]).status).toBe(0);
  const tools = join(dir, 'tools.ts');
  writeFileSync(tools, readFileSync(tools, 'utf8').replaceAll('run: async (input, world)', 'run: (input, world)'));
  return { project, scenario: join(dir, 'customer-note.yaml'), tools };
}

const summaryHash = (out: string): string =>
  (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { scenarios: Array<{ hash: string }> }).scenarios[0]!
    .hash;

describe('a scenario with a tools module, swept', () => {
  it('gives byte-identical results with 2 workers (each importing the module) as with 1', () => {
    const { project, scenario } = syncToolsProject();
    const outs = ['1', '2'].map((workers) => {
      const out = join(project, `w${workers}`);
      const run = cli(['run', '-s', scenario, '-a', 'none,article', '-n', '24', '-w', workers, '-o', out]);
      expect(run.status, run.stderr).toBe(0);
      return out;
    });
    for (const file of ['runs.jsonl', 'runs.csv', 'summary.json'])
      expect(readFileSync(join(outs[1]!, file), 'utf8'), file).toBe(readFileSync(join(outs[0]!, file), 'utf8'));
    const lines = readFileSync(join(outs[0]!, 'runs.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(48);
    expect(lines.filter((line) => line.includes('"verdict":"success"')).length).toBeGreaterThan(10);
  });

  it('is another sweep once the tools module changes: the scenario hash takes in the module text', () => {
    const { project, scenario, tools } = syncToolsProject();
    const sweep = (out: string): string => {
      const run = cli(['run', '-s', scenario, '-a', 'none', '-n', '2', '-o', join(project, out)]);
      expect(run.status, run.stderr).toBe(0);
      return summaryHash(join(project, out));
    };
    const before = sweep('a');
    expect(sweep('b')).toBe(before);
    writeFileSync(tools, `${readFileSync(tools, 'utf8')}// a change\n`);
    expect(sweep('c')).not.toBe(before);
  });

  it('merges no shards across an edited file the tools module imports, naming that file', () => {
    const { project, scenario, tools } = syncToolsProject();
    const helper = join(project, 'bench', 'note-words.ts');
    writeFileSync(helper, "export const noteWord = 'note';\n");
    writeFileSync(tools, `import { noteWord } from './note-words.js';\nvoid noteWord;\n${readFileSync(tools, 'utf8')}`);
    const shard = (index: number) => {
      const run = cli([
        'run',
        '-s',
        scenario,
        '-a',
        'none',
        '-n',
        '4',
        '--shard',
        `${index}/2`,
        '-o',
        join(project, `s${index}`),
      ]);
      expect(run.status, run.stderr).toBe(0);
    };
    shard(1);
    writeFileSync(helper, "export const noteWord = 'memo';\n");
    shard(2);
    const merged = cli(['merge', join(project, 's1'), join(project, 's2'), '-o', join(project, 'merged')]);
    expect(merged.status, merged.stderr).toBe(2);
    expect(merged.stderr).toMatch(
      /the files of its tools modules differ: customer-note: \S*note-words\.ts \(sha256 [0-9a-f]{8}…, now [0-9a-f]{8}…\)/,
    );
  });

  it('is refused, before any run, when a tool of the module shares a name with a tool a guard offers', () => {
    const { project, scenario, tools } = syncToolsProject();
    // The stuck-tool guard offers request_human_help: two tools of one name would fail every article run.
    writeFileSync(tools, readFileSync(tools, 'utf8').replace(/name: 'save_note'/, "name: 'request_human_help'"));
    writeFileSync(scenario, readFileSync(scenario, 'utf8').replace(/\bsave_note\b/g, 'request_human_help'));
    const out = join(project, 'clash');
    const run = cli(['run', '-s', scenario, '-a', 'none,article', '-n', '2', '-o', out]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      "tools: tool names other than 'request_human_help', which the stuck guard of arm 'article' offers the model",
    );
    expect(cli(['run', '-s', scenario, '-a', 'none', '-n', '2', '-o', join(project, 'bare')]).status).toBe(0);
  });
});
