/**
 * What a served run costs beside the same agent in-process (docs/serve.md, "Cost"): 200 seeds
 * of fetch-transform-write, examples/serve/agent.ts's runServed against `spiralbench serve`
 * with one run in flight and with eight, then the same loop in-process, in turn, in one
 * process, REPEATS times (default 3).
 *
 *   npx tsx scripts/serve-cost.ts [path/to/bin/spiralbench.js]   # default: this checkout's
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runServed } from '../examples/serve/agent.js';
import { runAgentSweep } from '../src/sweep/agent-sweep.js';
import { inProcess } from '../test/serve-helpers.js';

const bin = process.argv[2] ?? fileURLToPath(new URL('../bin/spiralbench.js', import.meta.url));
const SEEDS = 200;
const REPEATS = Number(process.env.REPEATS ?? 3);

/** Wall ms for every seed served, `inFlight` runs at a time (serve's own exit not counted). */
async function served(inFlight: number): Promise<number> {
  const out = join(mkdtempSync(join(tmpdir(), 'serve-cost-')), 'served');
  const serve = spawn(
    process.execPath,
    [bin, 'serve', '-s', 'fetch-transform-write', '-n', String(SEEDS), '--port', '0', '-o', out, '--arm', 'ts-agent'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const url = await new Promise<string>((resolve) =>
    createInterface({ input: serve.stdout }).once('line', (line) => resolve(JSON.parse(line).url)),
  );
  const exited = new Promise((resolve) => serve.once('close', resolve));
  const start = performance.now();
  let next = 1;
  const agent = async () => {
    while (next <= SEEDS) await runServed(url, { seed: next++ });
  };
  await Promise.all(Array.from({ length: inFlight }, agent));
  const ms = performance.now() - start;
  await exited;
  return ms;
}

async function inProcessMs(): Promise<number> {
  const start = performance.now();
  await runAgentSweep({ agent: inProcess, scenarios: ['fetch-transform-write'], seeds: SEEDS });
  return performance.now() - start;
}

await inProcessMs(); // warm-up: the in-process loop loads its modules once
for (let repeat = 1; repeat <= REPEATS; repeat++) {
  const one = await served(1);
  const eight = await served(8);
  const local = await inProcessMs();
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `repeat ${repeat}: served, 1 in flight ${s(one)}, 8 in flight ${s(eight)}; in-process ${s(local)}; ` +
      `served ÷ in-process ${(one / local).toFixed(2)}× / ${(eight / local).toFixed(2)}×`,
  );
}
