import { describe, expect, it } from 'vitest';
import type { StoredProgress } from '../results/progress-schema.js';
import { UserInputError } from '../user-input-error.js';
import { checkSameSweep, type SweepIdentity } from './sweep-progress.js';

const identity: SweepIdentity = {
  scenarios: [{ id: 'fetch-transform-write', hash: 'abc' }],
  arms: [],
  seeds: { base: 1, count: 10 },
  sweep_seed: 0,
  model: 'simulated',
  shard: { index: 1, count: 1 },
  chunk_size: 250,
};

const progress = (sweep: SweepIdentity): StoredProgress => ({
  spiralbench: '0.1.0',
  sweep,
  chunks_done: 0,
  runs_done: 0,
  jsonl_bytes: 0,
  csv_bytes: 0,
});

function refusal(stored: SweepIdentity, resuming: SweepIdentity): string {
  try {
    checkSameSweep(progress(stored), resuming, '/r');
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  return 'resumed';
}

describe('checkSameSweep and ensembles', () => {
  const ensemble = { name: 'default', hash: 'f00' };

  it('resumes the same sweep, with or without an ensemble', () => {
    expect(refusal(identity, identity)).toBe('resumed');
    expect(refusal({ ...identity, ensemble }, { ...identity, ensemble })).toBe('resumed');
  });

  it('refuses an ensemble the interrupted sweep did not have, one it had left out, or another one', () => {
    expect(refusal(identity, { ...identity, ensemble })).toMatch(
      /^\/r\/progress\.json: sweep\.ensemble: the interrupted sweep's ensemble \(none\), got \{"name":"default","hash":"f00"\}/,
    );
    expect(refusal({ ...identity, ensemble }, identity)).toMatch(/sweep\.ensemble: .*got none/);
    expect(refusal({ ...identity, ensemble }, { ...identity, ensemble: { ...ensemble, hash: 'ba5' } })).toMatch(
      /sweep\.ensemble/,
    );
  });
});

describe('checkSameSweep and user modules', () => {
  const withAgent = (hash: string): SweepIdentity => ({
    ...identity,
    arms: [{ name: 'agent:mine', guards: [], agent: { kind: 'module', module: './mine.ts', hash, settings: {} } }],
  });
  const withGuard = (hash: string): SweepIdentity => ({
    ...identity,
    arms: [{ name: 'capped', guards: [{ guard: 'cap', module: './cap.ts', hash, settings: {} }] }],
  });

  it('refuses to resume over an edited agent or guard module, naming the module', () => {
    expect(refusal(withAgent('a'.repeat(64)), withAgent('a'.repeat(64)))).toBe('resumed');
    expect(refusal(withAgent('a'.repeat(64)), withAgent('b'.repeat(64)))).toMatch(
      /sweep\.arms: the agent and guard modules the interrupted sweep ran, unchanged; changed since: agent:mine: \.\/mine\.ts \(sha256 aaaaaaaa…, now bbbbbbbb…\)/,
    );
    expect(refusal(withGuard('a'.repeat(64)), withGuard('c'.repeat(64)))).toMatch(/changed since: capped: \.\/cap\.ts/);
  });

  it('refuses to resume over an edited file a tools module imports, naming it', () => {
    const withTools = (helper: string): SweepIdentity => ({
      ...identity,
      scenarios: [
        {
          id: 'team',
          hash: helper.repeat(64),
          files: { './tools.ts': 'a'.repeat(64), './names.ts': helper.repeat(64) },
        },
      ],
    });
    expect(refusal(withTools('d'), withTools('d'))).toBe('resumed');
    expect(refusal(withTools('d'), withTools('e'))).toMatch(
      /sweep\.scenarios: the scenarios' tools modules and the files they import, unchanged; changed since: team: \.\/names\.ts \(sha256 dddddddd…, now eeeeeeee…\)/,
    );
  });
});
