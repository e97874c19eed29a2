import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup/yield-to-runner.ts'],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine,
    // where most of the suite's time is end-to-end tests waiting on the CLI processes they
    // spawn. Two files at a time overlap those waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // End-to-end tests spawn the built CLI and some run sweeps in beforeAll. No test asserts
    // how fast anything is (that is `npm run bench` and docs/performance.md); these limits
    // only end a test that hangs, and leave room for a machine under heavy load.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
