import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from './cli-helpers.js';

// A custom scenario in a folder whose name needs quoting, and a custom arm from an arms file,
// both named relative to the folder the user works in.
const SCENARIO = 'my scenarios/harsh.yaml';
const ARMS = 'arms.yaml';

interface Printed {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A printed `spiralbench …` command, run by a shell in `cwd` as a user would paste it. */
function runPrinted(command: string, cwd: string): Printed {
  expect(command).toMatch(/^spiralbench /);
  const line = command.replace(/^spiralbench /, `'${process.execPath}' '${BIN}' `);
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  return spawnSync('sh', ['-c', line], { cwd, encoding: 'utf8', env });
}

describe('printed replay commands work as printed, for custom scenario files and arms files', () => {
  const cwd = tempDir();
  let run: Printed;
  let traces: Array<{ arm: string; replay: string; record: { tool_calls: number; verdict: string } }>;

  beforeAll(() => {
    mkdirSync(join(cwd, 'my scenarios'));
    writeFileSync(
      join(cwd, SCENARIO),
      readFileSync('scenarios/lookup-readonly.yaml', 'utf8').replace('id: lookup-readonly', 'id: harsh'),
    );
    writeFileSync(join(cwd, ARMS), 'arms:\n  - name: tight\n    guards: [{ guard: budget, maxToolCalls: 2 }]\n');
    run = runPrinted(
      `spiralbench run --scenarios '${SCENARIO}' --arms none,tight --arms-file ${ARMS} --seeds 6 --sweep-seed 3 --out out`,
      cwd,
    );
    traces = readFileSync(join(cwd, 'out', 'traces.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as (typeof traces)[number]);
  });

  it('the traces name the scenario by its path and the custom arm with its arms file', () => {
    expect(run.status, run.stderr).toBe(0);
    expect(traces.map((trace) => trace.arm)).toContain('tight');
    for (const trace of traces) {
      expect(trace.replay).toContain(`--scenario '${SCENARIO}' --arm ${trace.arm} --seed `);
      expect(trace.replay).toContain('--sweep-seed 3');
      expect(trace.replay.includes(`--arms-file ${ARMS}`)).toBe(trace.arm === 'tight');
    }
  });

  it("each trace's command replays its run: exit 0, the same verdict and tool calls", () => {
    for (const trace of traces) {
      const replay = runPrinted(trace.replay, cwd);
      expect(replay.status, `${trace.replay}\n${replay.stderr}`).toBe(0);
      expect(replay.stdout).toContain(`verdict: ${trace.record.verdict} —`);
      expect(replay.stdout).toContain(`tool calls ${trace.record.tool_calls} ·`);
      expect(replay.stdout.trimEnd().split('\n').at(-1)).toBe(`replay: ${trace.replay}`);
    }
  });

  it('the command run prints after the sweep works too', () => {
    const printed = /^replay a run: (spiralbench replay .*)$/m.exec(run.stdout)?.[1];
    expect(printed).toContain(`--scenario '${SCENARIO}'`);
    const replay = runPrinted(printed!, cwd);
    expect(replay.status, replay.stderr).toBe(0);
  });
});
