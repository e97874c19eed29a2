import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentSweep } from '../src/sweep/agent-sweep.js';
import { tempDir } from './cli-helpers.js';
import { inProcess, readRuns, same, startServe } from './serve-helpers.js';

const AGENT = fileURLToPath(new URL('../examples/serve/agent.py', import.meta.url));
const SEEDS = 20;

/** The interpreter: SPIRALBENCH_PYTHON (a virtualenv's python, say), else python3 on the PATH. */
const PYTHON = process.env['SPIRALBENCH_PYTHON'] ?? 'python3';
/** Whether it can import the two packages the example uses (docs/serve.md gives the versions). */
const importable = spawnSync(PYTHON, ['-c', 'import anthropic, mcp'], { encoding: 'utf8' });
const available = importable.status === 0;
if (!available)
  console.log(
    `serve-python: skipping the Python agent's ${SEEDS}-seed run: ${PYTHON} cannot import anthropic and mcp here (${(importable.stderr || importable.error?.message || 'no python3').trim().split('\n').at(-1)}); pip install "anthropic>=1,<2" "mcp>=2,<3" and set SPIRALBENCH_PYTHON to run it`,
  );

describe("docs/serve.md's Python agent", () => {
  it('is valid Python', () => {
    const parsed = spawnSync(PYTHON, ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read())', AGENT], {
      encoding: 'utf8',
    });
    if (parsed.error !== undefined) return; // no python3 at all: nothing to check it with
    expect(parsed.status, parsed.stderr).toBe(0);
  });

  it.skipIf(!available)(
    `runs ${SEEDS} seeds against serve, each run ended, judged and equal to the same loop in-process`,
    async () => {
      const out = join(tempDir('spiralbench-serve-py-'), 'served');
      const serve = await startServe([
        '-s',
        'fetch-transform-write',
        '-n',
        String(SEEDS),
        '-o',
        out,
        '--arm',
        'py-agent',
      ]);
      const agent = spawn(PYTHON, [AGENT, serve.about.url, String(SEEDS), '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let printed = '';
      agent.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
      });
      agent.stderr.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => agent.once('close', resolve));
      expect(code, printed).toBe(0);
      const exited = await serve.exited;
      expect(exited.code, exited.stderr).toBe(0);
      const runs = readRuns(out);
      expect(runs.map((run) => run.seed)).toEqual(Array.from({ length: SEEDS }, (_, i) => i + 1));
      // The agent ran its loop: it called the model and the tools, not only the run API.
      expect(runs.every((run) => run.model_calls > 0)).toBe(true);
      expect(runs.some((run) => run.verdict === 'success')).toBe(true);
      // The Python loop is the TypeScript example's loop: the same runs as that loop in-process.
      const { records } = await runAgentSweep({ agent: inProcess, scenarios: ['fetch-transform-write'], seeds: SEEDS });
      expect(runs.map(same)).toEqual(records.map(same));
    },
  );
});
