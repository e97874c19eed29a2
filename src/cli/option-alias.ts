import { Option } from 'commander';

/**
 * An option's older spelling, kept so scripts written against it still work. It is
 * hidden from the option list (the option it stands for says "--x is an alias") and
 * stores into that option's value, so the required-option check, the default and
 * everything downstream see one value. commander has no option aliases of its own.
 */
class OptionAlias extends Option {
  readonly #target: string;

  constructor(flags: string, target: string) {
    super(flags);
    this.#target = target;
    this.hideHelp();
  }

  override attributeName(): string {
    return this.#target;
  }
}

/**
 * @param flags the old spelling with its argument, e.g. `--seed <n>`, or a switch, e.g. `--discard`
 * @param target the attribute of the option it stands for, e.g. `firstSeed` for `--first-seed`
 * @param parse the parser of the option it stands for; none for a switch
 * @example
 * command
 *   .option('--first-seed <n>', 'first run seed (--seed is an alias)', nonNegativeInt, 1)
 *   .addOption(optionAlias('--seed <n>', 'firstSeed', nonNegativeInt))
 *   .option('--overwrite', 'replace what --out holds (--discard is an alias)', false)
 *   .addOption(optionAlias('--discard', 'overwrite'))
 */
export function optionAlias<T>(flags: string, target: string, parse?: (value: string, previous: T) => T): Option {
  const alias = new OptionAlias(flags, target);
  return parse === undefined ? alias : alias.argParser(parse);
}
