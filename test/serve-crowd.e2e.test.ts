import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServed } from '../examples/serve/agent.js';
import { tempDir } from './cli-helpers.js';
import { runAgentSweep } from '../src/sweep/agent-sweep.js';
import { inProcess, readRuns, same, startServe } from './serve-helpers.js';

const AGENTS = 200;

describe('spiralbench serve under a crowd', () => {
  it(`records every run of ${AGENTS} agents in flight at once on kept-alive connections, none lost or silent`, async () => {
    const out = join(tempDir('spiralbench-serve-crowd-'), 'served');
    const serve = await startServe([
      '-s',
      'fetch-transform-write',
      '-n',
      String(AGENTS),
      '-o',
      out,
      '--arm',
      'crowd',
      '--idle-timeout',
      '60',
    ]);
    // Node's fetch (undici) pools and reuses connections, as the Anthropic, OpenAI and MCP clients do.
    const agents = await Promise.allSettled(
      Array.from({ length: AGENTS }, (_, i) => runServed(serve.about.url, { seed: i + 1 })),
    );
    const exited = await serve.exited;
    const failures = agents.flatMap((agent) => (agent.status === 'rejected' ? [String(agent.reason)] : []));
    expect(failures).toEqual([]);
    expect(exited.code, exited.stderr).toBe(0);
    const records = readRuns(out);
    expect(records).toHaveLength(AGENTS);
    expect(records.filter((record) => record.failure_reason?.error_class === 'AgentWentSilent')).toEqual([]);
    // A reset would show as a run that failed where the same loop in-process did not.
    const { records: expected } = await runAgentSweep({
      agent: inProcess,
      scenarios: ['fetch-transform-write'],
      seeds: AGENTS,
    });
    expect(records.map(same)).toEqual(expected.map(same));
  }, 300_000);
});
