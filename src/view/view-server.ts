import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { type FinishedSweep, openFinishedSweep, readTraces } from '../results/results-reader.js';
import { RUNS_FILE } from '../results/results-files.js';
import type { StoredTrace } from '../results/trace-schema.js';
import { RequestGuard, WILDCARD_ADDRESSES } from '../serve/request-guard.js';
import { ServeRefusal } from '../serve/serve-refusal.js';
import { UserInputError } from '../user-input-error.js';
import { type IndexProgress, indexRuns, readFirstRuns, RunsChanged, sweepFilesState } from '../results/runs-index.js';
import { MAX_PAGE, type RunQuery, type RunRow, RunTable, rowOf, SORT_KEYS, type SortKey } from './run-table.js';
import { recordedJson, replayArguments, replayJson, TranscriptUnavailable } from './run-transcript.js';
import { SERVED_MODEL } from '../results/served-model.js';
import { diffSweeps } from './sweep-diff.js';
import { VIEW_CSS, VIEW_HTML, VIEW_JS } from './view-page.js';

/** A sweep the page has opened: its index as it is built, and its traces once read. */
class Opened {
  /** The sweep as read when this index was started: a sweep run again into its folder is read afresh with it. */
  readonly sweep: FinishedSweep;
  progress: IndexProgress = { bytes: 0, size: 0 };
  ready: RunTable | undefined = undefined;
  traces: Promise<StoredTrace[]> | undefined = undefined;
  /** Why the index could not be built. */
  failed: unknown = undefined;
  /** The sweep's files as they were when the index was started (sweepFilesState). */
  readonly files: string;
  readonly table: Promise<RunTable>;

  constructor(sweep: FinishedSweep, signal: AbortSignal) {
    this.sweep = sweep;
    this.files = sweepFilesState(sweep);
    this.table = indexRuns(
      sweep,
      (progress) => {
        this.progress = progress;
      },
      { signal },
    ).then((index) => (this.ready = new RunTable(index)));
    this.table.catch((error: unknown) => {
      this.failed = error;
    });
  }
}

/** Sweeps whose index is kept, the last opened: a diff's two and a few more. */
const KEPT_INDEXES = 4;

/** The first pages a sweep shows while its index is built: unfiltered, in file order, near the start. */
const FIRST_PAGES = 5000;

/** A results folder the viewer found: a finished sweep, or why it cannot be shown. */
interface Listed {
  readonly id: number;
  /** Its path from where the viewer was started. */
  readonly name: string;
  readonly sweep: FinishedSweep | undefined;
  readonly problem: string | undefined;
}

/** Results folders in `paths`: each a sweep itself, or the sweeps one or two levels inside it. */
export function findSweeps(paths: readonly string[], cwd = process.cwd()): Listed[] {
  const dirs: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (existsSync(join(dir, RUNS_FILE))) dirs.push(dir);
    else if (depth > 0)
      for (const name of readdirSync(dir).sort((a, b) => a.localeCompare(b))) {
        const inside = join(dir, name);
        // A folder, or a link to one: statSync follows links.
        if (statSync(inside, { throwIfNoEntry: false })?.isDirectory() === true) visit(inside, depth - 1);
      }
  };
  for (const path of paths) {
    const dir = resolve(cwd, path);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw UserInputError.single(
        path,
        '',
        `a results folder, or a folder holding results folders${path === 'results' ? ' (the default when no folder is given)' : ''}`,
      );
    const before = dirs.length;
    visit(dir, 2);
    if (dirs.length === before)
      throw UserInputError.single(
        path,
        '',
        'a results folder (one holding runs.jsonl, as `spiralbench run --out <dir>` writes), or a folder holding them up to two levels down; none is here',
      );
  }
  return [...new Set(dirs)].map((dir, id) => {
    const name = relative(cwd, dir) || '.';
    try {
      return { id, name, sweep: openFinishedSweep(dir), problem: undefined };
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      return { id, name, sweep: undefined, problem: error.message };
    }
  });
}

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
/** Transcripts kept, the last opened: a diff's two sides and a few runs back. */
const KEPT_TRANSCRIPTS = 32;

/** At most `size` pieces of work at once; the rest wait their turn, in order. */
class Slots {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.size) await new Promise<void>((turn) => this.#waiting.push(turn));
    this.#running += 1;
    try {
      return await work();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }
}

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
  const opened = new Map<number, Opened>();
  /** Aborted when the viewer closes: indexes still being built stop. */
  const closing = new AbortController();
  /**
   * A sweep's index, started on first asking and built in the background. One that failed
   * on what the files hold says so at every asking until they change, and is then started
   * afresh at once: a client polling a broken sweep would otherwise have it read whole
   * again every other time. Any other failure (the files changed while read, the system
   * refused) is said once, and started afresh on the next asking.
   */
  const open = (entry: Listed & { sweep: FinishedSweep }): Opened => {
    let found = opened.get(entry.id);
    if (found?.failed !== undefined) {
      const { failed } = found;
      const onContent = failed instanceof UserInputError && !(failed instanceof RunsChanged);
      if (onContent && sweepFilesState(found.sweep) === found.files) throw failed;
      opened.delete(entry.id);
      if (!onContent) throw failed;
      found = undefined;
    }
    if (found === undefined) found = new Opened(openFinishedSweep(entry.sweep.dir), closing.signal);
    // Kept in the order last opened, the oldest let go first: a big sweep's index is some 90 bytes a run.
    opened.delete(entry.id);
    opened.set(entry.id, found);
    // A request already waiting on one let go still gets it; the next asking builds it again.
    for (const id of opened.keys()) if (opened.size > KEPT_INDEXES && id !== entry.id) opened.delete(id);
    return found;
  };
  const tracesOf = (entry: Listed & { sweep: FinishedSweep }): Promise<StoredTrace[]> => {
    const state = open(entry);
    state.traces ??= readTraces(state.sweep).then((traces) => traces ?? []);
    state.traces.catch(() => {
      state.traces = undefined;
    });
    return state.traces;
  };
  const sweepOf = (id: string | null): Listed & { sweep: FinishedSweep } => {
    const entry = listed[Number(id)];
    if (id === null || entry === undefined || !/^\d+$/.test(id))
      throw new ServeRefusal(404, 'unknown_sweep', `no sweep '${id ?? ''}'; GET /api/sweeps lists them`);
    if (entry.sweep === undefined) throw new ServeRefusal(409, 'unreadable_sweep', entry.problem ?? 'unreadable');
    return entry as Listed & { sweep: FinishedSweep };
  };

  const transcripts = new Map<string, Promise<unknown>>();
  /** Who waits for each transcript not yet answered. */
  const askers = new Map<string, Set<ServerResponse>>();
  const replays = new Slots(2);
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
      entry: Listed & { sweep: FinishedSweep },
      parts: readonly string[],
      query: URLSearchParams,
    ): Promise<void> => {
      const state = open(entry);
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
        const traces = await tracesOf(entry);
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
        // A replay is the same every time: kept for the last few runs opened, and at most
        // two run at once however many a page asks for (one whose asker left is not started).
        let waiting = askers.get(key);
        if (waiting === undefined) askers.set(key, (waiting = new Set()));
        waiting.add(response);
        response.once('close', () => waiting.delete(response));
        let transcript = transcripts.get(key);
        if (transcript === undefined) {
          transcript = replays.run(async () => {
            // Started only for someone still waiting: every asker may have left while it queued.
            if (![...(askers.get(key) ?? [])].some((asker) => !asker.destroyed))
              throw new TranscriptUnavailable('nobody is waiting for this run any more');
            return sameRun(await replayJson(args, cwd), row);
          });
          transcripts.set(key, transcript);
          transcript.catch(() => transcripts.delete(key));
          if (transcripts.size > KEPT_TRANSCRIPTS) transcripts.delete(transcripts.keys().next().value!);
        }
        try {
          return send(200, JSON_TYPE, JSON.stringify(await transcript));
        } finally {
          waiting.delete(response);
          if (waiting.size === 0) askers.delete(key);
        }
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
          if (raisedBy !== undefined && opened.get(entry.id)?.ready?.index === raisedBy) opened.delete(entry.id);
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
          if (arm !== undefined && !open(entry).sweep.summary.arms.some((known) => known.name === arm))
            throw new ServeRefusal(400, 'bad_query', `no arm '${arm}' in ${entry.name}`);
        const side = async (entry: typeof a, arm: string | undefined) => {
          const state = open(entry);
          const table = await state.table;
          try {
            table.index.checkFile();
          } catch (error) {
            if (error instanceof RunsChanged && opened.get(entry.id) === state) opened.delete(entry.id);
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

/**
 * The replayed run, if it is the sweep's: the same verdict, outcome, counts, task and
 * member as its record. Otherwise what was changed since the sweep (the scenario, its
 * dataset, an arms file or agent, or the folder the viewer reads paths from) would be
 * shown as the sweep's run.
 */
function sameRun(replayed: unknown, row: RunRow): unknown {
  const record = (replayed as { record?: Record<string, unknown> }).record ?? {};
  const fields = ['verdict', 'outcome', 'tool_calls', 'model_calls', 'input_tokens', 'task', 'member'] as const;
  const differs = fields.filter((field) => record[field] !== row[field]);
  if (differs.length > 0)
    throw new TranscriptUnavailable(
      `replaying this run does not give the sweep's record of it (${differs.map((field) => `${field}: ${String(row[field])} recorded, ${String(record[field])} now`).join('; ')}): its scenario, dataset, arms or agent changed since the sweep ran, or the viewer was started in another folder than the sweep`,
    );
  return replayed;
}

/** How far a sweep's index is, and its filters' choices once it is built. */
function indexState(state: Opened) {
  const { bytes, size } = state.progress;
  return state.ready === undefined
    ? { ready: false, bytes, size }
    : { ready: true, bytes: size, size, runs: state.ready.size, choices: state.ready.choices() };
}

function isFirstPages(query: RunQuery): boolean {
  const { sort, descending, offset = 0, limit = 50, ...filters } = query;
  return (
    (sort ?? 'seed') === 'seed' &&
    descending !== true &&
    Object.values(filters).every((value) => value === undefined) &&
    offset + Math.min(limit, MAX_PAGE) <= FIRST_PAGES
  );
}

function firstPage(sweep: FinishedSweep, query: RunQuery): { total: number; offset: number; rows: RunRow[] } {
  const offset = Math.max(0, query.offset ?? 0);
  const limit = Math.min(MAX_PAGE, Math.max(1, query.limit ?? 50));
  const total = sweep.summary.cells.reduce((sum, cell) => sum + cell.runs, 0);
  return { total, offset, rows: readFirstRuns(sweep, offset, limit).map(rowOf) };
}

function described(entry: Listed) {
  const summary = entry.sweep?.summary;
  return {
    id: entry.id,
    name: entry.name,
    ...(summary === undefined
      ? { problem: entry.problem }
      : {
          runs: summary.cells.reduce((sum, cell) => sum + cell.runs, 0),
          model: summary.model,
          scenarios: summary.scenarios.map((scenario) => scenario.id),
          arms: summary.arms.map((arm) => arm.name),
          seeds: summary.seeds,
          finished_at: entry.sweep?.meta?.finished_at ?? null,
        }),
  };
}

function required(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw new ServeRefusal(400, 'bad_query', `${name}: required`);
  return value;
}

function whole(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new ServeRefusal(400, 'bad_query', `${name}: a whole number, got '${value}'`);
  return Number(value);
}

function runQuery(query: URLSearchParams): RunQuery {
  const text = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' ? {} : { [name]: value };
  };
  const sort = query.get('sort') ?? 'seed';
  if (!(SORT_KEYS as readonly string[]).includes(sort))
    throw new ServeRefusal(400, 'bad_query', `sort: one of ${SORT_KEYS.join(', ')}, got '${sort}'`);
  const number = (name: string, key: keyof RunQuery) => {
    const value = whole(query, name);
    return value === undefined ? {} : { [key]: value };
  };
  const member = whole(query, 'member');
  if (member !== undefined && member < 0) throw new ServeRefusal(400, 'bad_query', `member: 0 or more, got ${member}`);
  const offset = whole(query, 'offset');
  if (offset !== undefined && offset < 0) throw new ServeRefusal(400, 'bad_query', `offset: 0 or more, got ${offset}`);
  const limit = whole(query, 'limit');
  if (limit !== undefined && (limit < 1 || limit > MAX_PAGE))
    throw new ServeRefusal(400, 'bad_query', `limit: from 1 to ${MAX_PAGE}, got ${limit}`);
  const order = query.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc')
    throw new ServeRefusal(400, 'bad_query', `order: asc or desc, got '${order}'`);
  return {
    ...text('scenario'),
    ...text('arm'),
    ...text('verdict'),
    ...text('outcome'),
    ...text('task'),
    ...text('fault'),
    ...text('event'),
    ...number('member', 'member'),
    ...number('seed_min', 'seedMin'),
    ...number('seed_max', 'seedMax'),
    ...number('offset', 'offset'),
    ...number('limit', 'limit'),
    sort: sort as SortKey,
    descending: order === 'desc',
  };
}
