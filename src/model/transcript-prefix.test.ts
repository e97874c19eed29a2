import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { KEPT_TRANSCRIPTS, TranscriptReadings } from './transcript-prefix.js';

describe('TranscriptReadings', () => {
  it('gives each array its own reading, whichever array was read last', () => {
    const readings = new TranscriptReadings<string>();
    const a: MessageParam[] = [{ role: 'user', content: 'a' }];
    const b: MessageParam[] = [{ role: 'user', content: 'a' }];
    readings.set(a, 'reading of a');
    readings.set(b, 'reading of b');
    expect([readings.get(a), readings.get(b), readings.get(a), readings.get([...a])]).toEqual([
      'reading of a',
      'reading of b',
      'reading of a',
      undefined,
    ]);
    readings.set(a, 'a again');
    expect(readings.get(a)).toBe('a again');
  });

  it('forgets a deleted array, the last one read included', () => {
    const readings = new TranscriptReadings<number>();
    const a: MessageParam[] = [];
    const b: MessageParam[] = [];
    readings.set(a, 1);
    readings.set(b, 2);
    readings.delete(b);
    expect(readings.get(b)).toBeUndefined();
    readings.delete(a);
    expect(readings.get(a)).toBeUndefined();
  });

  it('keeps the arrays read most recently, and forgets the least recent beyond its bound', () => {
    const readings = new TranscriptReadings<number>();
    const arrays: MessageParam[][] = Array.from({ length: KEPT_TRANSCRIPTS + 1 }, () => []);
    arrays.forEach((array, i) => readings.set(array, i));
    // The first array set is the one too many; the second, read again, is kept from here on.
    expect(readings.get(arrays[0]!)).toBeUndefined();
    expect(readings.get(arrays[1]!)).toBe(1);
    readings.set([], -1);
    expect(readings.get(arrays[1]!)).toBe(1);
    expect(readings.get(arrays[2]!)).toBeUndefined();
    expect(readings.get(arrays[KEPT_TRANSCRIPTS]!)).toBe(KEPT_TRANSCRIPTS);
  });
});

describe('TranscriptReadings.lookup', () => {
  const prompt: MessageParam = { role: 'user', content: 'a' };
  const reply: MessageParam = { role: 'assistant', content: 'b' };

  it('finds the reading of an earlier array that began with the same message object, and hands it over', () => {
    const readings = new TranscriptReadings<string>();
    const earlier: MessageParam[] = [prompt];
    readings.set(earlier, 'earlier');
    readings.set([{ role: 'user', content: 'other run' }], 'other');
    const rebuilt: MessageParam[] = [prompt, reply, { role: 'user', content: 'c' }];
    expect(readings.get(rebuilt)).toBeUndefined();
    expect(readings.lookup(rebuilt)).toBe('earlier');
    expect(readings.get(rebuilt)).toBe('earlier');
    expect(readings.get(earlier)).toBeUndefined();
  });

  it('finds nothing for the same data in new objects, nor for an empty transcript', () => {
    const readings = new TranscriptReadings<string>();
    readings.set([prompt], 'earlier');
    expect(readings.lookup([{ role: 'user', content: 'a' }, reply])).toBeUndefined();
    expect(readings.lookup([])).toBeUndefined();
  });
});
