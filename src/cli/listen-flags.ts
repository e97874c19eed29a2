import { InvalidArgumentError } from 'commander';
import { UserInputError } from '../user-input-error.js';
import { nonNegativeInt } from './parse.js';

/** `--port`: a TCP port, or 0 for a free one. */
export function portNumber(value: string): number {
  const port = nonNegativeInt(value);
  if (port > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one).');
  return port;
}

/**
 * Binds a local server (`serve`, `view`); a port or address the user cannot have is a
 * UserInputError naming the flag, not an unexpected error.
 */
export async function listenOrSay<T>(
  listen: () => Promise<T>,
  flags: { readonly host: string; readonly port: number },
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const at = `${flags.host}:${flags.port}`;
    if (code === 'EADDRINUSE')
      throw UserInputError.single('--port', '', `a free port; ${at} is in use (--port 0 picks a free one)`);
    if (code === 'EACCES')
      throw UserInputError.single(
        '--port',
        '',
        `a port this user may listen on; ${at} is refused (try one above 1023, or --port 0)`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw UserInputError.single('--host', '', `an address of this machine; ${flags.host} is not one (${code})`);
    throw error;
  }
}
