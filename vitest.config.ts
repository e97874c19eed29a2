import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // End-to-end tests spawn the built CLI; a few take seconds on a 2-core machine.
    testTimeout: 60_000,
    // Some suites run CLI sweeps in beforeAll; under load that takes longer than vitest's 10 s.
    hookTimeout: 60_000,
  },
});
