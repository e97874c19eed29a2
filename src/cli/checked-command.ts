import { Command } from 'commander';
import { didYouMean } from '../did-you-mean.js';

const HELP_FLAGS = new Set(['-h', '--help']);

/**
 * A commander command that names an unknown option before anything else. commander checks
 * required options first, so `run --seed-count 5` said "required option --scenarios not
 * specified" and never mentioned the flag that was mistyped; here a command without
 * subcommands refuses its first unknown option as soon as its options are parsed, with the
 * closest known flag. A help flag among them still shows the help.
 */
export class CheckedCommand extends Command {
  override createCommand(name?: string): Command {
    return new CheckedCommand(name);
  }

  override parseOptions(argv: string[]): ReturnType<Command['parseOptions']> {
    const parsed = super.parseOptions(argv);
    const [flag] = parsed.unknown;
    if (this.commands.length === 0 && flag?.startsWith('-') && !parsed.unknown.some((arg) => HELP_FLAGS.has(arg))) {
      const name = flag.split('=')[0] ?? flag;
      this.error(`error: unknown option '${name}'${didYouMean(name, this.#knownFlags())}`, {
        code: 'commander.unknownOption',
      });
    }
    return parsed;
  }

  /** The long flags this command and its parents show in their help. */
  #knownFlags(): string[] {
    const flags: string[] = [];
    for (let command: Command | null = this; command !== null; command = command.parent)
      for (const option of command.options) if (!option.hidden && option.long !== undefined) flags.push(option.long);
    return flags;
  }
}
