import type { Command } from 'commander';
import { startView } from '../../view/view-server.js';
import { escapeControl } from '../../report/terminal-text.js';
import { WILDCARD_ADDRESSES } from '../../serve/request-guard.js';
import { UserInputError } from '../../user-input-error.js';
import { listenOrSay, portNumber } from '../listen-flags.js';

interface ViewFlags {
  readonly port: number;
  readonly host: string;
  readonly allowHost: readonly string[];
}

export function registerView(program: Command): void {
  program
    .command('view')
    .description(
      'Look at results in your browser: a local, read-only page listing the sweeps in the folders given, each with its cells and a run table to filter and sort; any run opens its whole transcript (replayed from its seed), and two sweeps or two arms go side by side with the seeds that flipped.',
    )
    .argument('[folders...]', 'results folders, or folders holding them (two levels deep)', ['results'])
    .option('--port <n>', 'port (0 picks a free one)', portNumber, 8790)
    .option(
      '--host <address>',
      'address to listen on (loopback by default; anything else is open to the network)',
      '127.0.0.1',
    )
    .option(
      '--allow-host <name>',
      'a name or address the viewer answers to besides loopback and --host: the one other machines use (repeatable; needed with --host 0.0.0.0)',
      (value: string, previous: readonly string[]) => [...previous, value],
      [] as readonly string[],
    )
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  spiralbench view results/            # then open the URL it prints',
        '',
        'A run opens by running `spiralbench replay` for it in a process of its own, from this folder',
        "(the sweep's scenario paths are read from here); a real model's runs are not run again.",
        'Only requests naming it by a loopback name (or --host, --allow-host) and its port are answered, and only GET; Ctrl-C stops it.',
        'See docs/view.md.',
      ].join('\n'),
    )
    .action(async (folders: string[], flags: ViewFlags) => {
      if (WILDCARD_ADDRESSES.has(flags.host) && flags.allowHost.length === 0)
        throw UserInputError.single(
          '--host',
          '',
          `an address requests can name; ${flags.host} listens on every address, and the viewer answers only requests naming it: add --allow-host <the name or address other machines use>`,
        );
      const view = await listenOrSay(
        () => startView({ paths: folders, port: flags.port, host: flags.host, allowHosts: flags.allowHost }),
        flags,
      );
      process.stdout.write(`viewing ${view.sweeps} sweep(s) at ${escapeControl(view.url)} (Ctrl-C stops it)\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await view.close();
    });
}
