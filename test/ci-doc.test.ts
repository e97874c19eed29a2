import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXIT_CODE_MEANINGS } from '../src/cli/exit-codes.js';
import { cli } from './cli-helpers.js';

// docs/ci.md is copied into users' repositories: its workflow must parse, and every
// command and flag it names must be one the CLI has (checked against --help).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');

function fenced(language: string): string[] {
  return [...page.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1]!);
}

interface Step {
  readonly run?: string;
  readonly uses?: string;
  readonly with?: Record<string, unknown>;
}
interface Workflow {
  readonly env: Record<string, string>;
  readonly jobs: Record<
    string,
    { readonly needs?: string; readonly strategy?: { matrix: { shard: number[] } }; readonly steps: Step[] }
  >;
}

const workflows = fenced('yaml');
const workflow = parse(workflows[0] ?? '') as Workflow;

/** Every `spiralbench <command> ...` invocation on the page, its env variables expanded. */
function invocations(): string[][] {
  const lines = [
    ...fenced('sh'),
    ...Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => step.run ?? '')),
  ].flatMap((block) => block.split('\n'));
  return lines
    .map((line) => line.replace(/\$SWEEP\b/g, workflow.env['SWEEP'] ?? ''))
    .filter((line) => /\bspiralbench \w/.test(line))
    .map((line) => line.slice(line.indexOf('spiralbench ') + 'spiralbench '.length).split(/\s+/));
}

describe('docs/ci.md', () => {
  it('holds one workflow that parses: sharded sweeps, then a job that merges, gates and writes the job summary', () => {
    expect(workflows).toHaveLength(1);
    const { sweep, gate } = workflow.jobs;
    const shards = sweep!.strategy!.matrix.shard;
    expect(shards).toEqual([1, 2, 3]);
    const sweepRun = sweep!.steps.map((step) => step.run ?? '').join('\n');
    expect(sweepRun).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
    expect(sweep!.steps.some((step) => step.uses?.startsWith('actions/upload-artifact@') === true)).toBe(true);
    expect(gate!.needs).toBe('sweep');
    const gateRun = gate!.steps.map((step) => step.run ?? '').join('\n');
    expect(gateRun).toContain(`merge ${shards.map((shard) => `results/shard-${shard}`).join(' ')}`);
    expect(gateRun).toMatch(/report .*--markdown >> "\$GITHUB_STEP_SUMMARY"/);
    expect(gateRun).toMatch(/compare baselines\/main results\/candidate --fail-on-regression/);
    expect(gateRun).toContain('>> "$GITHUB_STEP_SUMMARY"');
  });

  it('names only commands and flags the CLI has', () => {
    const calls = invocations();
    expect(new Set(calls.map((call) => call[0]))).toEqual(new Set(['run', 'compare', 'merge', 'report', 'replay']));
    const help = new Map<string, string>();
    for (const [command, ...args] of calls) {
      if (!help.has(command!)) {
        const result = cli([command!, '--help']);
        expect(result.status, command).toBe(0);
        help.set(command!, result.stdout);
      }
      for (const flag of args.filter((arg) => arg.startsWith('--')))
        expect(help.get(command!), `${command} ${flag}`).toMatch(new RegExp(`${flag}\\b`));
    }
  });

  it('lists the exit codes the CLI uses', () => {
    for (const [code] of EXIT_CODE_MEANINGS) expect(page).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
  });
});
