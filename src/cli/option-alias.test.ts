import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { optionAlias } from './option-alias.js';

function program(): Command {
  return new Command('x')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined })
    .requiredOption('--first-seed <n>', 'first run seed (--seed is an alias)', Number)
    .addOption(optionAlias('--seed <n>', 'firstSeed', Number));
}

describe('optionAlias', () => {
  it('stores into the option it stands for, which then counts as given', () => {
    expect(program().parse(['--seed', '4'], { from: 'user' }).opts()).toEqual({ firstSeed: 4 });
    expect(program().parse(['--first-seed', '5'], { from: 'user' }).opts()).toEqual({ firstSeed: 5 });
  });

  it('is left out of the option list', () => {
    expect(program().helpInformation()).not.toMatch(/^\s+--seed/m);
  });

  it('stands for a switch too', () => {
    const command = () =>
      new Command('x')
        .exitOverride()
        .option('--overwrite', 'replace (--discard is an alias)', false)
        .addOption(optionAlias('--discard', 'overwrite'));
    expect(command().parse(['--discard'], { from: 'user' }).opts()).toEqual({ overwrite: true });
    expect(command().parse([], { from: 'user' }).opts()).toEqual({ overwrite: false });
    expect(command().helpInformation()).not.toMatch(/^\s+--discard/m);
  });
});
