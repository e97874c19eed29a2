import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, tempDir } from './cli-helpers.js';

const BUNDLED = new URL('../scenarios/', import.meta.url).pathname;

/** A folder with its own copies of two bundled scenarios and of every bundled persona. */
function scenarioFolder(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'personas'));
  for (const name of readdirSync(join(BUNDLED, 'personas')))
    copyFileSync(join(BUNDLED, 'personas', name), join(dir, 'personas', name));
  for (const id of ['fetch-transform-write', 'lookup-readonly'])
    copyFileSync(join(BUNDLED, `${id}.yaml`), join(dir, `${id}.yaml`));
  return dir;
}

const sweep = (dir: string) => [
  'run',
  '--scenario',
  `${join(dir, 'fetch-transform-write.yaml')},${join(dir, 'lookup-readonly.yaml')}`,
  '--arms',
  'none,article',
  '--seeds',
  '2500',
];

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

describe('a sweep reads its inputs once, before the first run', () => {
  it('runs every scenario as it was when the sweep started, under the hash it records, whatever is edited meanwhile', async () => {
    const pristine = scenarioFolder();
    const reference = tempDir();
    // The second scenario's runs are the second half of the sweep: shard 2/2 is exactly them.
    const second = cli([...sweep(pristine), '--shard', '2/2', '--workers', '1', '--out', reference]);
    expect(second.status, second.stderr).toBe(0);

    const edited = scenarioFolder();
    const out = join(tempDir(), 'sweep');
    mkdirSync(out);
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const child = spawn(process.execPath, [BIN, ...sweep(edited), '--workers', '2', '--out', out], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    // Once the first chunk is on disk, long before the pool reaches the second scenario
    // (20 chunks later), that scenario and the persona both use are broken.
    let edits = 0;
    const watcher = watch(out, () => {
      if (edits > 0 || !existsSync(join(out, 'progress.json'))) return;
      edits += 1;
      writeFileSync(join(edited, 'lookup-readonly.yaml'), 'id: lookup-readonly\n');
      writeFileSync(join(edited, 'personas', 'default.yaml'), 'id: [');
    });
    const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
    watcher.close();
    expect(edits).toBe(1);
    expect(code, stderr).toBe(0);

    const runs = lines(join(out, 'runs.jsonl'));
    expect(runs).toHaveLength(10_000);
    expect(runs.slice(5000)).toEqual(lines(join(reference, 'runs.jsonl')));
    const hashes = (dir: string) =>
      (
        JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { scenarios: Array<{ hash: string }> }
      ).scenarios.map((scenario) => scenario.hash);
    expect(hashes(out)).toEqual(hashes(reference));
  });
});
