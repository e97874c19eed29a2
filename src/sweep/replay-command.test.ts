import { describe, expect, it } from 'vitest';
import { replayCommand, shellWord } from './replay-command.js';

describe('replayCommand', () => {
  it('names a bundled scenario and a preset arm as before', () => {
    expect(replayCommand({ scenario: 'fetch-transform-write', arm: 'article', seed: 12, sweepSeed: 0 })).toBe(
      'spiralbench replay --scenario fetch-transform-write --arm article --seed 12',
    );
  });

  it('carries the scenario path, the arms file, the sweep seed, --via sdk and --stream, quoted for a shell', () => {
    expect(
      replayCommand({
        scenario: "my scenarios/it's.yaml",
        arm: 'tight',
        seed: 3,
        sweepSeed: 9,
        armsFile: 'arms.yaml',
        viaSdk: true,
        stream: true,
      }),
    ).toBe(
      "spiralbench replay --scenario 'my scenarios/it'\\''s.yaml' --arm tight --seed 3 --sweep-seed 9 --arms-file arms.yaml --via sdk --stream",
    );
  });
});

describe('shellWord', () => {
  it('leaves safe words alone and single-quotes the rest', () => {
    expect(shellWord('peer:vercel-ai')).toBe('peer:vercel-ai');
    expect(shellWord('./a/b.yaml')).toBe('./a/b.yaml');
    expect(shellWord('$(rm -rf ~)')).toBe("'$(rm -rf ~)'");
    expect(shellWord('')).toBe("''");
  });
});
