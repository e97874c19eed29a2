import { describe, expect, it } from 'vitest';
import type { StoredSummary } from '../results/summary-schema.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedJson, replayArguments, replayJson, TranscriptUnavailable } from './run-transcript.js';

const summary = (fields: Partial<StoredSummary>) =>
  ({ model: 'simulated', seeds: { base: 1, count: 40 }, ...fields }) as StoredSummary;
const trace = (replay: string) =>
  ({ scenario: 'fetch-transform-write', arm: 'none', seed: 3, replay }) as unknown as StoredTrace;
const RUN = { scenario: 'fetch-transform-write', arm: 'none', seed: 12 };

describe('the replay a viewer runs for a run', () => {
  it("is the traced run's command with this run's seed and, with an ensemble, its member", () => {
    const traced = trace(
      "spiralbench replay --scenario 'my tasks/lookup.yaml' --arm none --seed 3 --ensemble default --member 2 --stream",
    );
    const ensemble = { name: 'default', members: 40, hash: 'h' };
    expect(replayArguments(summary({ ensemble }), [traced], RUN)).toEqual([
      '--scenario',
      'my tasks/lookup.yaml',
      '--arm',
      'none',
      '--seed',
      '12',
      '--ensemble',
      'default',
      '--member',
      '11',
      '--stream',
    ]);
  });

  it('refuses a command spiralbench did not write, a real model, and a cell with no trace', () => {
    const refused = (traces: StoredTrace[], fields: Partial<StoredSummary> = {}) => {
      try {
        replayArguments(summary(fields), traces, RUN);
      } catch (error) {
        if (error instanceof TranscriptUnavailable) return error.message;
        throw error;
      }
      return 'allowed';
    };
    expect(refused([trace('spiralbench replay --scenario x --arm none --seed 3 --record /tmp/elsewhere')])).toMatch(
      /not one spiralbench wrote/,
    );
    expect(refused([trace('spiralbench run --scenario x --arm none --seed 3')])).toMatch(/not one spiralbench wrote/);
    expect(
      refused([trace('spiralbench replay --scenario x --arm none --seed 3')], { model: 'anthropic:claude-sonnet-4-5' }),
    ).toMatch(/cannot be run again from their seeds/);
    expect(refused([])).toMatch(/no traced run of fetch-transform-write · none/);
  });

  it("shows a served run as its trace kept it: the prompt, then what the agent's model said", () => {
    const served = {
      ...trace(''),
      seed: 12,
      prompt: 'export u_1',
      assistant_texts: ['fetching', 'done'],
      events: [],
      outbox: [],
      record: {},
    } as unknown as StoredTrace;
    expect(recordedJson([served], RUN)).toMatchObject({
      rerun: false,
      messages: [
        { role: 'user', content: 'export u_1' },
        { role: 'assistant', content: 'fetching' },
        { role: 'assistant', content: 'done' },
      ],
    });
    expect(() => recordedJson([served], { ...RUN, seed: 13 })).toThrow(/this run was not traced/);
  });

  it("says where the sweep's paths were looked for when a replay cannot find one", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'spiralbench-view-cwd-'));
    await expect(
      replayJson(['--scenario', 'my-tasks/lookup.yaml', '--arm', 'none', '--seed', '1'], elsewhere),
    ).rejects.toThrow(
      /file not found.*\(the viewer reads the sweep's paths from .*: start it in the folder the sweep was run from\)/,
    );
  });
});
