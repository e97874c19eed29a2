import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from './did-you-mean.js';

describe('didYouMean', () => {
  it('names the arm, scenario or flag one typo away', () => {
    expect(closestNames('articel', ['none', 'article', 'all'])).toEqual(['article']);
    expect(closestNames('fetch-transform-wrte', ['fetch-transform-write', 'lookup-readonly'])).toEqual([
      'fetch-transform-write',
    ]);
    expect(closestNames('--arm', ['--arms', '--agent', '--seeds'])).toEqual(['--arms']);
  });

  it('names the flag that starts with the same word when the rest is far', () => {
    expect(closestNames('--seed-count', ['--scenarios', '--arms', '--seeds', '--workers'])).toEqual(['--seeds']);
  });

  it('says nothing when no name is close', () => {
    expect(didYouMean('zzz', ['none', 'article'])).toBe('');
    expect(didYouMean('articel', ['none', 'article'])).toBe(" (did you mean 'article'?)");
  });
});

describe('didYouMean on flags', () => {
  it('ignores the dashes, which every flag shares', () => {
    expect(closestNames('--bogus', ['--out', '--arms'])).toEqual([]);
    expect(closestNames('--seed-count', ['--max-cost', '--seeds'])).toEqual(['--seeds']);
  });
});
