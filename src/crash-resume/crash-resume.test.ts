import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../durability/checkpoint-store.js';
import { loadScenario } from '../scenarios/loader.js';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { crashAndResume, type CrashResumeRecord } from './crash-resume.js';

const article = ARM_PRESETS.get('article') as Arm;

async function sweep(id: string, mode: 'envelope' | 'naive', seeds: number): Promise<CrashResumeRecord[]> {
  const store = new CheckpointStore(':memory:');
  const scenario = loadScenario(id);
  const records: CrashResumeRecord[] = [];
  for (let seed = 1; seed <= seeds; seed++) records.push(await crashAndResume(store, scenario, article, seed, 0, mode));
  store.close();
  return records;
}
const total = (records: readonly CrashResumeRecord[], field: 'resume_duplicates' | 'lost_results' | 'replayed') =>
  records.reduce((sum, record) => sum + record[field], 0);

describe('crash and resume', () => {
  it('with the envelope, repeats no write and loses no completed result, wherever the crash strikes', async () => {
    const records = await sweep('send-email-partial-write', 'envelope', 60);
    expect(new Set(records.map((record) => record.crash.kind))).toEqual(
      new Set(['checkpoint', 'before_tool', 'mid_tool', 'after_tool']),
    );
    expect(total(records, 'resume_duplicates')).toBe(0);
    expect(total(records, 'lost_results')).toBe(0);
    expect(total(records, 'replayed')).toBeGreaterThan(0);
    // A write that may have gone through halts for a person instead of being guessed at.
    expect(
      records.some(
        (record) =>
          record.crash.kind === 'mid_tool' &&
          record.crash.tool === 'send_email' &&
          record.outcome === 'waiting_on_human',
      ),
    ).toBe(true);
  });

  it('naively (from the last user message, no envelope), the same crashes repeat writes and redo finished work', async () => {
    const records = await sweep('send-email-partial-write', 'naive', 60);
    expect(total(records, 'resume_duplicates')).toBeGreaterThan(0);
    expect(total(records, 'lost_results')).toBeGreaterThan(0);
    expect(
      records.filter((record) => record.duplicate_side_effects > record.uncrashed_duplicate_side_effects).length,
    ).toBeGreaterThan(0);
  });

  it('is deterministic: the same seed crashes at the same point and ends the same way', async () => {
    expect(await sweep('fetch-transform-write', 'envelope', 10)).toEqual(
      await sweep('fetch-transform-write', 'envelope', 10),
    );
  });
});
