import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { TranscriptReadings } from './transcript-prefix.js';

describe('TranscriptReadings', () => {
  it('gives each array its own reading, whichever array was read last', () => {
    const readings = new TranscriptReadings<string>();
    const a: MessageParam[] = [{ role: 'user', content: 'a' }];
    const b: MessageParam[] = [{ role: 'user', content: 'a' }];
    readings.set(a, 'reading of a');
    readings.set(b, 'reading of b');
    expect([readings.get(a), readings.get(b), readings.get(a), readings.get([...a])]).toEqual(['reading of a', 'reading of b', 'reading of a', undefined]);
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
});
