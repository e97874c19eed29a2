#!/usr/bin/env node
// Runs every property test (*.fuzz.test.ts) with FUZZ_RUNS cases per property (default 10,000).
import { spawnSync } from 'node:child_process';

const runs = process.argv[2] ?? process.env.FUZZ_RUNS ?? '10000';
const result = spawnSync('npx', ['vitest', 'run', '.fuzz.test.ts', '--testTimeout=1200000'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs },
});
process.exit(result.status ?? 1);
