import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import '../src/vitest/index.js';
import { BIN } from './cli-helpers.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

// The matcher's replay commands are for pasting into a shell where the test ran: one, run
// as printed (the built CLI standing in for `npx spiralbench`), replays the failing run.
describe("toSurvive's replay commands", () => {
  it('replay the failing seed they name, with its verdict', async () => {
    const failed = await expect('./test/fixtures/agents/gives-up.ts')
      .toSurvive('fetch-transform-write', { seeds: 3, firstSeed: 7 })
      .then(
        () => '',
        (error: unknown) => (error as Error).message,
      );
    const line = failed.split('\n').find((text) => text.trim().startsWith('npx spiralbench replay'));
    expect(line?.trim()).toBe(
      'npx spiralbench replay --scenario fetch-transform-write --arm agent:gives-up --seed 7 --agent ./test/fixtures/agents/gives-up.ts',
    );
    const command = line!.trim().replace(/^npx spiralbench /, `'${process.execPath}' '${BIN}' `);
    const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
    const replay = spawnSync('sh', ['-c', command], { cwd: REPO, encoding: 'utf8', env });
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('fetch-transform-write · arm agent:gives-up · seed 7');
    expect(replay.stdout).toContain('verdict: failure — nothing was written to the outbox');
  });
});
