import { describe, expect, it } from 'vitest';
import { resolveArms } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';
import { loadScenario } from '../scenarios/loader.js';
import { runRecordSchema, writtenRunSchema } from './run-record-schema.js';

/** Records of runs that set every optional field a run can: a journal, a stream, a member, a failure. */
async function runRecords() {
  const arms = resolveArms(['none', 'journal', 'all', 'peer:anthropic-tool-runner']);
  const made = [];
  for (const id of ['fetch-transform-write', 'model-outage', 'refund-server-errors']) {
    const scenario = loadScenario(id);
    for (const arm of arms)
      for (const seed of [1, 2, 3]) made.push((await runOne({ sweepSeed: 0, scenario, arm, seed })).record);
    made.push((await runOne({ sweepSeed: 0, scenario, arm: arms[0]!, seed: 1, stream: true, member: 2 })).record);
  }
  return made;
}

/** Made once for both tests: 39 runs. */
let made: ReturnType<typeof runRecords> | undefined;
const records = () => (made ??= runRecords());

describe('a run record as written', () => {
  it('has every field of the written schema, none else, in its order, and reads back as a stored run', async () => {
    const written = await records();
    const order = Object.keys(writtenRunSchema.shape);
    for (const record of written) {
      expect(writtenRunSchema.strict().safeParse(record).error).toBeUndefined();
      const keys = Object.keys(record);
      expect(keys).toEqual(order.filter((key) => keys.includes(key)));
      expect(runRecordSchema.parse(JSON.parse(JSON.stringify(record)))).toBeTruthy();
    }
    // The runs above met the optional fields they are for.
    expect(written.some((record) => record.failure_reason !== undefined)).toBe(true);
    expect(written.some((record) => record.journal !== null)).toBe(true);
    expect(written.some((record) => record.model_faults.stream_cut !== undefined)).toBe(true);
    expect(written.some((record) => record.member === 2)).toBe(true);
  }, 60_000);

  it('refuses a record missing a kind of fault or carrying a field the schema lacks', async () => {
    const [record] = await records();
    const { timeout: _, ...faults } = record!.faults;
    expect(writtenRunSchema.strict().safeParse({ ...record, faults }).success).toBe(false);
    expect(writtenRunSchema.strict().safeParse({ ...record, extra: 1 }).success).toBe(false);
  }, 60_000);
});
