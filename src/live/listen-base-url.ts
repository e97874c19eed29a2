import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` listening and resolves to its base URL, `http://<host>:<port>` (an IPv6
 * host in brackets), with the port the system picked when `port` is 0. Rejects with the
 * listen error (a port in use, an address not on this machine) for the caller to word.
 *
 * @example
 * const base = await listenBaseUrl(server, '127.0.0.1', 0); // 'http://127.0.0.1:40123'
 */
export function listenBaseUrl(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${bound}`);
    });
  });
}
