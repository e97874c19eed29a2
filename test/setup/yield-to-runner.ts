import { afterEach, beforeEach } from 'vitest';

/**
 * A test file's worker answers the runner over an RPC channel whose replies wait 60 s at
 * most, a limit vitest does not let us set. Most end-to-end tests run the CLI with
 * spawnSync, so a file of them never returns to the event loop between tests; on a loaded
 * machine a minute of them in a row made a green run fail with `Timeout calling
 * "onTaskUpdate"`. Before and after each test the worker goes once round the event loop
 * (two setImmediate turns, so a poll phase reads the runner's replies in between), so a
 * long `beforeAll` and the test after it never add up; the long sweeps of `beforeAll`
 * hooks run through `cliAsync` (test/cli-helpers.ts), which does not block at all.
 */
async function roundTheEventLoop(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

beforeEach(roundTheEventLoop);
afterEach(roundTheEventLoop);
