// Two builds of spiralbench, side by side in one process: the same runs through each, in
// alternating batches, CPU time per batch; prints the median per-batch ratio (after ÷ before).
// For a change meant to cost nothing per run (a refactor), where whole-command timings drown
// a few percent in start-up and noise. Build each checkout first (`npm run build`).
//
//   node scripts/paired-runs.mjs <before checkout> <after checkout> [arm] [scenario]
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const [before, after, arm = 'none', scenarioId = 'fetch-transform-write'] = process.argv.slice(2);
if (before === undefined || after === undefined) {
  process.stderr.write('usage: node scripts/paired-runs.mjs <before checkout> <after checkout> [arm] [scenario]\n');
  process.exit(2);
}
const BATCHES = 24;
const RUNS = 500;

/** The build's runOne over the scenario and arm, wherever its layout keeps them. */
async function runsOf(checkout) {
  const dist = resolve(checkout, 'dist');
  const folder = existsSync(`${dist}/arms/run-one.js`) ? 'arms' : 'bench';
  const { runOne } = await import(`${dist}/${folder}/run-one.js`);
  const { resolveArms } = await import(`${dist}/${folder}/arms.js`);
  const { loadScenario } = await import(`${dist}/scenarios/loader.js`);
  const scenario = loadScenario(scenarioId);
  const [picked] = resolveArms([arm]);
  return async (first) => {
    for (let seed = first; seed < first + RUNS; seed++) await runOne({ sweepSeed: 0, scenario, arm: picked, seed });
  };
}

/** CPU milliseconds `work` takes. */
async function cpuMs(work) {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const [runA, runB] = [await runsOf(before), await runsOf(after)];
await runA(1);
await runB(1);
const ratios = [];
const [a, b] = [[], []];
for (let i = 0; i < BATCHES; i++) {
  a.push(await cpuMs(() => runA(1 + i * RUNS)));
  b.push(await cpuMs(() => runB(1 + i * RUNS)));
  ratios.push(b[i] / a[i]);
}
const median = (values) => values.slice().sort((x, y) => x - y)[values.length >> 1];
const perRun = (values) => ((median(values) / RUNS) * 1000).toFixed(0);
process.stdout.write(
  `${scenarioId} ${arm}: before ${perRun(a)} µs/run, after ${perRun(b)} µs/run (CPU); after ÷ before, median of ${BATCHES} batches: ${median(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})\n`,
);
