import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sweepProgress } from './progress.js';

function terminal(): PassThrough & { isTTY: boolean } {
  return Object.assign(new PassThrough(), { isTTY: true });
}

describe('sweepProgress', () => {
  it('writes plain lines at each tenth on a terminal that cannot move its cursor (TERM=dumb)', () => {
    const stream = terminal();
    const progress = sweepProgress(2000, stream as unknown as NodeJS.WriteStream, { TERM: 'dumb' });
    progress?.(450, 2000);
    expect(stream.read()?.toString()).toBe('10% · 200/2000 runs\n20% · 400/2000 runs\n');
  });

  it('is quiet for a small sweep', () => {
    expect(sweepProgress(999, terminal() as unknown as NodeJS.WriteStream, { TERM: 'xterm' })).toBeUndefined();
  });
});
