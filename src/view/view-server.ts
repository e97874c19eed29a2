import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunsChanged } from '../results/runs-index.js';
import { SERVED_MODEL } from '../results/served-model.js';
import { RequestGuard, WILDCARD_ADDRESSES } from '../serve/request-guard.js';
import { ServeRefusal } from '../serve/serve-refusal.js';
import { UserInputError } from '../user-input-error.js';
import {
  described,
  findSweeps,
  firstPage,
  indexState,
  isFirstPages,
  OpenedSweeps,
  type ReadableSweep,
} from './opened-sweeps.js';
import type { RunRow } from './run-table.js';
import { recordedJson, replayArguments, TranscriptUnavailable } from './run-transcript.js';
import { diffSweeps } from './sweep-diff.js';
import { TranscriptReplays } from './transcript-replays.js';
import { required, runQuery, whole } from './view-query.js';
import { VIEW_CSS, VIEW_HTML, VIEW_JS } from './view-page.js';

export interface ViewOptions {
  readonly paths: readonly string[];
  readonly host?: string;
  /** Host names answered besides the loopback names and `host` (`--allow-host`). @default [] */
  readonly allowHosts?: readonly string[];
  /** 0 picks a free port. */
  readonly port?: number;
  /** Where a run is replayed from (the sweeps' scenario paths are relative to it). @default process.cwd() */
  readonly cwd?: string;
}

/** A running viewer: its address, and how to stop it. */
export interface RunningView {
  readonly url: string;
  readonly sweeps: number;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `spiralbench view`: a read-only local web server over results folders. It lists the
 * sweeps; for a sweep, its cells and a run table filtered, sorted and paged on the server;
 * any run's transcript (replayed from its seed in a process of its own); and two sweeps, or
 * two arms, side by side with the seeds that flipped. The page needs nothing from the
 * network. Like `serve`, it answers only requests that name it by a loopback name and
 * port, refuses every browser Origin but its own page's, and takes no request that changes
 * anything (GET only).
 */
export async function startView(options: ViewOptions): Promise<RunningView> {
  const cwd = options.cwd ?? process.cwd();
  const listed = findSweeps(options.paths, cwd);
  const host = options.host ?? '127.0.0.1';
  const guard = new RequestGuard({ hosts: [host, ...(options.allowHosts ?? [])], command: 'view' });
  /** Aborted when the viewer closes: indexes still being built stop. */
  const closing = new AbortController();
  const opened = new OpenedSweeps(closing.signal);
  const sweepOf = (id: string | null): ReadableSweep => {
    const entry = listed[Number(id)];
    if (id === null || entry === undefined || !/^\d+$/.test(id))
      throw new ServeRefusal(404, 'unknown_sweep', `no sweep '${id ?? ''}'; GET /api/sweeps lists them`);
    if (entry.sweep === undefined) throw new ServeRefusal(409, 'unreadable_sweep', entry.problem ?? 'unreadable');
    return entry as ReadableSweep;
  };

  const replays = new TranscriptReplays(cwd);
  let port = options.port ?? 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        'content-type': type,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
        ...headers,
      });
      response.end(body);
    };
    const answerSweep = async (
      entry: ReadableSweep,
      parts: readonly string[],
      query: URLSearchParams,
    ): Promise<void> => {
      const state = opened.open(entry);
      const { sweep } = state;
      // A built index whose file is gone or changed says so, rather than answer from what it holds.
      state.ready?.index.checkFile();
      if (parts.length === 3)
        return send(
          200,
          JSON_TYPE,
          JSON.stringify({ ...described({ ...entry, sweep }), summary: sweep.summary, index: indexState(state) }),
        );
      if (parts[3] === 'index' && parts.length === 4) return send(200, JSON_TYPE, JSON.stringify(indexState(state)));
      if (parts[3] === 'runs' && parts.length === 4) {
        const runQueried = runQuery(query);
        // While the index is built, the first pages in file order are read from the file's start.
        if (state.ready === undefined && isFirstPages(runQueried))
          return send(200, JSON_TYPE, JSON.stringify(firstPage(sweep, runQueried)));
        return send(200, JSON_TYPE, JSON.stringify((await state.table).page(runQueried)));
      }
      if (parts[3] === 'transcript' && parts.length === 4) {
        const table = await state.table;
        const traces = await opened.tracesOf(entry);
        const run = {
          scenario: required(query, 'scenario'),
          arm: required(query, 'arm'),
          seed: whole(query, 'seed') ?? Number.NaN,
        };
        if (!Number.isSafeInteger(run.seed)) throw new ServeRefusal(400, 'bad_query', 'seed: a whole number');
        const at = table.find(run.scenario, run.arm, run.seed);
        if (at === -1)
          throw new ServeRefusal(
            404,
            'unknown_run',
            `no run ${run.scenario} · ${run.arm} · seed ${run.seed} in this sweep`,
          );
        const [row] = table.rows([at]) as [RunRow];
        if (sweep.summary.model === SERVED_MODEL)
          return send(200, JSON_TYPE, JSON.stringify(recordedJson(traces, run)));
        const args = replayArguments(sweep.summary, traces, run, cwd);
        const key = JSON.stringify([entry.id, run.scenario, run.arm, run.seed]);
        return send(200, JSON_TYPE, JSON.stringify(await replays.transcript(key, args, row, response)));
      }
      throw new ServeRefusal(404, 'not_found', `nothing at /${parts.join('/')}`);
    };
    try {
      // A request another site's page made (a link, an image) says so: refused, as it
      // could otherwise start replays that run the user's agent.
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none')
        throw new ServeRefusal(403, 'forbidden_site', `a request from another site (${site}) is refused`);
      // The page's own requests carry its origin; any other page's are refused.
      const own = `http://${request.headers.host ?? ''}`;
      const { origin, ...rest } = request.headers;
      guard.admit(origin === own ? rest : request.headers, port);
      // HEAD too: a HEAD of a transcript would start a replay, and so run an agent's module.
      if (request.method !== 'GET')
        throw new ServeRefusal(405, 'method_not_allowed', 'the viewer only reads: GET', { headers: { allow: 'GET' } });
      const url = new URL(request.url ?? '/', 'http://view.invalid');
      const query = url.searchParams;
      const parts = url.pathname.split('/').filter((part) => part !== '');
      if (url.pathname === '/') return send(200, 'text/html; charset=utf-8', VIEW_HTML);
      if (url.pathname === '/view.js') return send(200, 'text/javascript; charset=utf-8', VIEW_JS);
      if (url.pathname === '/view.css') return send(200, 'text/css; charset=utf-8', VIEW_CSS);
      // Browsers ask for an icon on their own; there is none, and that is not an error.
      if (url.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
      if (parts[0] !== 'api') throw new ServeRefusal(404, 'not_found', `nothing at ${url.pathname}`);
      if (parts[1] === 'sweeps' && parts.length === 2)
        return send(200, JSON_TYPE, JSON.stringify(listed.map(described)));
      if (parts[1] === 'sweeps' && parts.length >= 3) {
        const entry = sweepOf(parts[2]!);
        try {
          return await answerSweep(entry, parts, query);
        } catch (error) {
          // A runs.jsonl changed under its index: said, and indexed afresh on the next asking.
          const raisedBy = error instanceof RunsChanged ? error.index : undefined;
          if (raisedBy !== undefined) opened.forgetIndex(entry, raisedBy);
          throw error;
        }
      }
      if (parts[1] === 'diff' && parts.length === 2) {
        const a = sweepOf(query.get('a'));
        const b = sweepOf(query.get('b'));
        const armA = query.get('arm_a') ?? undefined;
        const armB = query.get('arm_b') ?? undefined;
        if ((armA === undefined) !== (armB === undefined))
          throw new ServeRefusal(400, 'bad_query', 'arm_a and arm_b: both, to compare two arms, or neither');
        for (const [entry, arm] of [
          [a, armA],
          [b, armB],
        ] as const)
          if (arm !== undefined && !opened.open(entry).sweep.summary.arms.some((known) => known.name === arm))
            throw new ServeRefusal(400, 'bad_query', `no arm '${arm}' in ${entry.name}`);
        const side = async (entry: typeof a, arm: string | undefined) => {
          const state = opened.open(entry);
          const table = await state.table;
          try {
            table.index.checkFile();
          } catch (error) {
            if (error instanceof RunsChanged) opened.forget(entry, state);
            throw error;
          }
          return { name: entry.name, summary: state.sweep.summary, table, ...(arm === undefined ? {} : { arm }) };
        };
        return send(200, JSON_TYPE, JSON.stringify(diffSweeps(await side(a, armA), await side(b, armB))));
      }
      throw new ServeRefusal(404, 'not_found', `nothing at ${url.pathname}`);
    } catch (error) {
      if (error instanceof ServeRefusal)
        return send(error.status, JSON_TYPE, JSON.stringify({ error: { type: error.type, message: error.message } }), {
          ...error.headers,
        });
      if (error instanceof UserInputError)
        return send(409, JSON_TYPE, JSON.stringify({ error: { type: 'unreadable_sweep', message: error.message } }));
      if (error instanceof TranscriptUnavailable)
        return send(422, JSON_TYPE, JSON.stringify({ error: { type: 'no_transcript', message: error.message } }));
      const message = error instanceof Error ? error.message : String(error);
      return send(500, JSON_TYPE, JSON.stringify({ error: { type: 'internal', message } }));
    }
  };
  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  port = (server.address() as AddressInfo).port;
  // A wildcard address is no name to open: the first name the viewer answers to is.
  const named = WILDCARD_ADDRESSES.has(host) ? (options.allowHosts?.[0] ?? '127.0.0.1') : host;
  const shown = named.includes(':') && !named.startsWith('[') ? `[${named}]` : named;
  return {
    url: `http://${shown}:${port}/`,
    sweeps: listed.length,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        // A browser's kept-alive connections, and an index being built, would hold the close for seconds.
        server.closeAllConnections();
        closing.abort();
      }),
  };
}
