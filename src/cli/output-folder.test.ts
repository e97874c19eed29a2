import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { outputFolder } from './output-folder.js';

describe('outputFolder', () => {
  it.each(['', '  ', '/', '//', '/..', '/tmp/..'])('refuses %j', (value) => {
    expect(() => outputFolder(value)).toThrow(InvalidArgumentError);
  });

  it.each(['results/latest', '.', '/tmp/sweep', 'root'])('takes %j as given', (value) => {
    expect(outputFolder(value)).toBe(value);
  });
});
