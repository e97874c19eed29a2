#!/usr/bin/env node
// How reading untrusted YAML scales: a map of n keys and a scenario whose world holds n
// records, at n and 2n, side by side in one process (tinybench). Linear reading shows a
// ratio near 2; yaml's own duplicate-key check was quadratic (a ratio near 4). The tests
// check what these inputs produce; how long they take is measured here, never asserted
// there (the suite must pass on a loaded machine). Run after `npm run build`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { loadScenarioFile } from '../dist/scenarios/loader.js';
import { parseYamlInput } from '../dist/scenarios/yaml-input.js';

const n = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'spiralbench-bench-inputs-'));
const bundled = readFileSync(new URL('../scenarios/fetch-transform-write.yaml', import.meta.url), 'utf8');

const mapOf = (size) => Array.from({ length: size }, (_, i) => `k${i}: ${i}`).join('\n');
const scenarioOf = (size) => {
  const records = Array.from({ length: size }, (_, i) => `    extra_${i}: { id: extra_${i} }`).join('\n');
  const path = join(dir, `fetch-transform-write-${size}.yaml`);
  // A top-level key the loader reads and refuses after parsing the whole file: every key is read.
  writeFileSync(path, `${bundled}\nextra:\n${records}\n`);
  return path;
};
const tryLoad = (path) => {
  try {
    loadScenarioFile(path);
  } catch {
    // Refused for its unknown key, after reading all of it.
  }
};

const inputs = [n, 2 * n].map((size) => ({ size, map: mapOf(size), scenario: scenarioOf(size) }));
// Each read takes seconds: a few iterations, not tinybench's default of 64.
const bench = new Bench({ time: 0, iterations: 5, warmupIterations: 1 });
for (const { size, map, scenario } of inputs) {
  bench.add(`yaml map, ${size} keys`, () => parseYamlInput(map));
  bench.add(`scenario file, ${size} extra keys`, () => tryLoad(scenario));
}
bench.add('nesting 2,000,000 deep, refused', () => {
  try {
    parseYamlInput(`${'['.repeat(2_000_000)}1${']'.repeat(2_000_000)}`);
  } catch {
    // Refused at once, before yaml builds it recursively.
  }
});
await bench.run();
rmSync(dir, { recursive: true, force: true });

const mean = (name) => bench.tasks.find((task) => task.name === name).result.latency.mean;
for (const task of bench.tasks) console.log(`${task.name.padEnd(36)} ${task.result.latency.mean.toFixed(1).padStart(9)} ms`);
for (const kind of ['yaml map, %d keys', 'scenario file, %d extra keys']) {
  const ratio = mean(kind.replace('%d', 2 * n)) / mean(kind.replace('%d', n));
  console.log(`${kind.replace('%d', 'n').padEnd(36)} 2n / n = ${ratio.toFixed(2)} (linear: 2)`);
}
