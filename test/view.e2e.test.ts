import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startView, type RunningView } from '../src/view/view-server.js';
import { variedFolder } from '../src/results/sweep-fixture.test-helpers.js';
import { runServed } from '../examples/serve/agent.js';
import { cli, cliAsync, tempDir } from './cli-helpers.js';
import { startServe } from './serve-helpers.js';
import { browserRequired, findBrowser, launchHeadless } from './find-browser.js';

const BROWSER = findBrowser();
if (BROWSER.kind === 'missing' && browserRequired())
  throw new Error(`the viewer's browser tests need a browser under CI: ${BROWSER.hint}`);
const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));

interface Run {
  arm: string;
  seed: number;
  verdict: string;
  tool_calls: number;
}

/** Two sweeps in one folder: none and article on the reference task, and the same with another sweep seed. */
const root = tempDir();
let view: RunningView;
let runs: Run[] = [];

beforeAll(async () => {
  for (const [name, seed] of [
    ['first', '0'],
    ['second', '1'],
  ] as const) {
    const run = await cliAsync([
      'run',
      '-s',
      'fetch-transform-write',
      '-a',
      'none,article',
      '-n',
      '30',
      '--sweep-seed',
      seed,
      '-o',
      join(root, 'results', name),
      '--json',
    ]);
    expect(run.status, run.stderr).toBe(0);
  }
  // A served sweep, as the reference sweep serves it: 200 seeds of the example agent, 8 at a time.
  const serve = await startServe(['-s', 'fetch-transform-write', '-n', '200', '-o', join(root, 'results', 'served')]);
  let next = 1;
  const worker = async () => {
    while (next <= 200) await runServed(serve.about.url, { seed: next++ });
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  const exited = await serve.exited;
  expect(exited.code, exited.stderr).toBe(0);
  runs = readFileSync(join(root, 'results', 'first', 'runs.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Run);
  view = await startView({ paths: [join(root, 'results')], port: 0, cwd: root });
}, 180_000);

afterAll(async () => {
  await view?.close();
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(new URL(path, view.url), { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
};

describe('spiralbench view: the API behind the page', () => {
  it('lists the sweeps, and pages a filtered, sorted run table on the server', async () => {
    const sweeps = (await get('/api/sweeps')).body as unknown as Array<{ name: string; runs: number }>;
    expect(sweeps.map((sweep) => [sweep.name.split(/[\\/]/).at(-1), sweep.runs])).toEqual([
      ['first', 60],
      ['second', 60],
      ['served', 200],
    ]);
    const page = (await get('/api/sweeps/0/runs?arm=none&verdict=failure&sort=tool_calls&order=desc&limit=3'))
      .body as unknown as { total: number; rows: Run[] };
    const failures = runs.filter((run) => run.arm === 'none' && run.verdict === 'failure');
    expect(page.total).toBe(failures.length);
    expect(page.rows.map((run) => run.tool_calls)).toEqual(
      failures
        .map((run) => run.tool_calls)
        .sort((a, b) => b - a)
        .slice(0, 3),
    );
    expect((await get('/api/sweeps/0/runs?sort=verdict')).status).toBe(400);
    for (const query of ['order=DESC', 'limit=0', 'limit=501', 'offset=-1', 'member=-1'])
      expect((await get(`/api/sweeps/0/runs?${query}`)).status, query).toBe(400);
    expect((await get('/api/sweeps/0/runs/extra')).status).toBe(404);
  });

  it("opens any run's whole transcript, replayed from its seed: the record is the sweep's", async () => {
    const run = runs.find((candidate) => candidate.arm === 'article' && candidate.seed === 17)!;
    const { status, body } = await get('/api/sweeps/0/transcript?scenario=fetch-transform-write&arm=article&seed=17');
    expect(status).toBe(200);
    expect(body.record).toMatchObject({ seed: 17, arm: 'article', verdict: run.verdict, tool_calls: run.tool_calls });
    expect((body.messages as unknown[]).length).toBeGreaterThan(2);
  });

  it('puts two arms side by side: the cells that moved and every seed that flipped', async () => {
    const { body } = await get('/api/diff?a=0&b=0&arm_a=none&arm_b=article');
    const diff = body as unknown as { flipped: Array<{ seed: number; kind: string }> };
    const verdict = (arm: string, seed: number) => runs.find((run) => run.arm === arm && run.seed === seed)!.verdict;
    const expected = runs
      .filter((run) => run.arm === 'none')
      .filter((run) => (run.verdict === 'success') !== (verdict('article', run.seed) === 'success'))
      .map((run) => run.seed);
    expect(diff.flipped.map((flip) => flip.seed).sort((a, b) => a - b)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('compares seeds only where they are the same runs, and replays only runs of the sweep as they were', async () => {
    // Two sweep seeds: a seed meets other faults in each, so no seed is said to have flipped.
    const unpaired = (await get('/api/diff?a=0&b=1')).body as unknown as { flipped: unknown[]; unpaired: string };
    expect(unpaired.flipped).toEqual([]);
    expect(unpaired.unpaired).toMatch(/other sweep seeds \(0 and 1\)/);
    expect((await get('/api/diff?a=0&b=0&arm_a=none&arm_b=nothing')).status).toBe(400);
    expect((await get('/api/sweeps/0/transcript?scenario=fetch-transform-write&arm=none&seed=5000')).status).toBe(404);
    // A record edited after the sweep (or a scenario changed under it) is not what a replay gives: said, not shown.
    const copy = join(root, 'edited', 'first');
    cpSync(join(root, 'results', 'first'), copy, { recursive: true });
    const lines = readFileSync(join(copy, 'runs.jsonl'), 'utf8').split('\n');
    lines[0] = lines[0]!.replace(/"tool_calls":(\d+)/, (_, calls: string) => `"tool_calls":${Number(calls) + 1}`);
    writeFileSync(join(copy, 'runs.jsonl'), lines.join('\n'));
    const edited = await startView({ paths: [copy], port: 0, cwd: root });
    try {
      const first = JSON.parse(lines[0]!) as Run;
      const response = await fetch(
        new URL(
          `/api/sweeps/0/transcript?scenario=fetch-transform-write&arm=${first.arm}&seed=${first.seed}`,
          edited.url,
        ),
      );
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /does not give the sweep's record of it \(tool_calls: \d+ recorded, \d+ now\)/,
      );
    } finally {
      await edited.close();
    }
  }, 60_000);

  it('answers only a loopback Host with its port, no foreign page, and only GET', async () => {
    // fetch will not send another Host, nor Sec-Fetch-Site: node:http will, as a browser does.
    const statusWith = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        request(new URL('/api/sweeps', view.url), { headers }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    // A DNS-rebound page names another host; a link or an image on another site's page says where it came from.
    expect(await statusWith({ host: 'evil.example' })).toBe(403);
    expect(await statusWith({ 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect((await get('/api/sweeps', { origin: 'http://evil.example' })).status).toBe(403);
    const post = await fetch(new URL('/api/sweeps', view.url), { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    // HEAD too: a HEAD of a transcript would start a replay, and run an agent's module.
    expect((await fetch(new URL('/api/sweeps', view.url), { method: 'HEAD' })).status).toBe(405);
  });

  it('says a sweep whose runs.jsonl was deleted is gone, rather than answer from its index', async () => {
    const copy = join(root, 'deleted', 'first');
    cpSync(join(root, 'results', 'first'), copy, { recursive: true });
    const gone = await startView({ paths: [copy], port: 0, cwd: root });
    const ask = asker(gone);
    try {
      let index = (await ask('/api/sweeps/0')).body.index;
      while (!index.ready) index = (await ask('/api/sweeps/0/index')).body;
      rmSync(join(copy, 'runs.jsonl'));
      const diff = await ask('/api/diff?a=0&b=0&arm_a=none&arm_b=article');
      expect(diff.status).toBe(409);
      expect(diff.body.error.message).toMatch(/changed since/);
      // Asked again, the sweep is read afresh: and it has no runs.jsonl now.
      expect((await ask('/api/sweeps/0/index')).body.error.message).toMatch(/the folder has no runs\.jsonl/);
    } finally {
      await gone.close();
    }
  });

  it('says why two sweeps cannot be paired seed by seed when they share no cell', async () => {
    const diff = (await get('/api/diff?a=0&b=2')).body as unknown as { unpaired: string; flipped: unknown[] };
    expect(diff).toMatchObject({ unpaired: 'the sweeps share no (scenario, arm) cell', flipped: [] });
  });
});

/** What the big-sweep test reads of the API's answers. */
interface Answer {
  runs: number;
  total: number;
  rows: Run[];
  ready: boolean;
  index: Answer;
  choices: Record<string, string[]>;
  error: { message: string };
}

const asker = (running: RunningView) => async (path: string) => {
  const response = await fetch(new URL(path, running.url));
  return { status: response.status, body: (await response.json()) as Answer };
};

describe('spiralbench view from the command line: what a careless start is told', () => {
  it('names the flag or folder for a port in use, a port out of range, a wildcard host and an empty folder', () => {
    const busy = new URL(view.url).port;
    const said = (args: string[]) => {
      const { status, stderr } = cli(['view', ...args]);
      return { status, stderr };
    };
    expect(said([join(root, 'results'), '--port', busy])).toEqual({
      status: 2,
      stderr: `error: --port: a free port; 127.0.0.1:${busy} is in use (--port 0 picks a free one)\n`,
    });
    expect(said([join(root, 'results'), '--port', '70000']).stderr).toMatch(/expected a port from 0 to 65535/);
    expect(said([join(root, 'results'), '--host', '0.0.0.0']).stderr).toMatch(
      /--host: an address requests can name; 0\.0\.0\.0 listens on every address.*add --allow-host/,
    );
    const empty = tempDir();
    expect(said([empty]).stderr).toMatch(/a results folder \(one holding runs\.jsonl.*none is here/);
  });
});

describe('spiralbench view on a big sweep (the build: its index in worker threads)', () => {
  it('opens at once with its first page, indexes in the background, then filters; a bad line is said until the file is mended', async () => {
    const built = (await import(new URL('../dist/view/view-server.js', import.meta.url).href)) as {
      startView: typeof startView;
    };
    // 60,000 runs, about 40 MB: past the size the index splits between two workers.
    const dir = variedFolder(15_000);
    const big = await built.startView({ paths: [dir], port: 0, cwd: root });
    const at = asker(big);
    try {
      const opened = await at('/api/sweeps/0');
      expect(opened.body.runs).toBe(60_000);
      expect(opened.body.index.ready).toBe(false);
      const first = await at('/api/sweeps/0/runs?offset=50&limit=50');
      expect(first.body.total).toBe(60_000);
      expect(first.body.rows.map((row) => row.seed)).toEqual(Array.from({ length: 50 }, (_, i) => i + 51));
      let index = opened.body.index;
      while (!index.ready) index = (await at('/api/sweeps/0/index')).body;
      expect(index.choices.arm).toEqual(['article', 'none']);
      const failures = await at('/api/sweeps/0/runs?arm=none&verdict=failure&sort=tool_calls&order=desc&limit=5');
      expect(failures.body.total).toBe(2 * 3750);
      expect(failures.body.rows.map((row) => row.tool_calls)).toEqual([12, 12, 12, 12, 12]);
      expect((await at('/api/sweeps/0/runs?member=-1')).status).toBe(400);
      // Rewritten under the viewer (the same length, other verdicts): refused, then indexed afresh.
      const file = join(dir, 'runs.jsonl');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replaceAll('"verdict":"failure"', '"verdict":"harmful"'));
      const stale = await at('/api/sweeps/0/runs?arm=none&verdict=failure&limit=5');
      expect(stale.status).toBe(409);
      expect(stale.body.error.message).toMatch(/changed since \(open the sweep again to index it afresh\)/);
      expect((await at('/api/sweeps/0')).body.index.ready).toBe(false);
      writeFileSync(file, text);
    } finally {
      await big.close();
    }
    // A line spoiled after the sweep: the index fails and says where at every asking, without
    // reading the file again, until the file changes; then it is indexed afresh.
    const file = join(dir, 'runs.jsonl');
    const good = readFileSync(file, 'utf8');
    const lines = good.split('\n');
    lines[45_000] = '{"sweep_seed":';
    writeFileSync(file, lines.join('\n'));
    const spoiled = await built.startView({ paths: [dir], port: 0, cwd: root });
    const ask = asker(spoiled);
    try {
      expect((await ask('/api/sweeps/0')).status).toBe(200);
      let reply = await ask('/api/sweeps/0/index');
      while (reply.status === 200 && !reply.body.ready) reply = await ask('/api/sweeps/0/index');
      expect(reply.status).toBe(409);
      expect(reply.body.error.message).toMatch(/runs\.jsonl:45001: one JSON run record per line/);
      for (const path of ['/api/sweeps/0/index', '/api/sweeps/0', '/api/sweeps/0/index']) {
        const again = await ask(path);
        expect(again.status).toBe(409);
        expect(again.body.error.message).toBe(reply.body.error.message);
      }
      writeFileSync(file, good);
      expect((await ask('/api/sweeps/0')).body.index.ready).toBe(false);
      let mended = (await ask('/api/sweeps/0/index')).body;
      while (!mended.ready) mended = (await ask('/api/sweeps/0/index')).body;
      expect(mended.runs).toBe(60_000);
    } finally {
      await spoiled.close();
    }
  }, 120_000);
});

describe.skipIf(BROWSER.kind === 'missing')('spiralbench view in headless Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const elsewhere: string[] = [];

  beforeAll(async () => {
    if (BROWSER.kind === 'missing') return;
    context = await launchHeadless(BROWSER.path, { width: 1280, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith(view.url)) elsewhere.push(request.url());
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
  });

  it('filters the runs, opens a transcript by keyboard, and diffs two arms side by side', async () => {
    await page.goto(view.url);
    await page.getByRole('table', { name: 'runs' }).waitFor();
    await page.locator('#filters select[name="arm"]').selectOption('none');
    await page.locator('#filters select[name="verdict"]').selectOption('failure');
    await page.locator('#filters button[type="submit"]').click();
    const failures = runs.filter((run) => run.arm === 'none' && run.verdict === 'failure').length;
    await expect.poll(() => page.locator('#status').textContent()).toBe(`${failures} runs match`);
    mkdirSync(REPORTS, { recursive: true });
    await page.screenshot({ path: join(REPORTS, 'view-1280.png') });
    // Keyboard: a run row takes focus and Enter opens its transcript.
    await page.getByRole('table', { name: 'runs' }).locator('tbody tr').first().focus();
    await page.keyboard.press('Enter');
    await page.locator('#transcript-panes .pane h3').first().waitFor();
    await expect.poll(() => page.locator('#transcript-panes .msg').count(), { timeout: 30_000 }).toBeGreaterThan(2);
    await page.keyboard.press('Escape');
    // Diff: none against article in the first sweep; a flipped seed opens both transcripts.
    await page.locator('#diff-arm-a').selectOption('none');
    await page.locator('#diff-b').selectOption('0');
    await page.locator('#diff-arm-b').selectOption('article');
    await page.locator('#diff button[type="submit"]').click();
    const flips = page.getByRole('table', { name: 'flipped seeds' }).locator('tbody tr');
    await flips.first().waitFor();
    await flips.first().click();
    // Both sides replayed: the same seed's transcript under each arm, next to each other.
    await expect.poll(() => page.locator('#transcript-panes .pane:has(.msg)').count(), { timeout: 60_000 }).toBe(2);
    await page.screenshot({ path: join(REPORTS, 'view-diff-1280.png') });
    await page.keyboard.press('Escape');

    // The served sweep: its 200 runs, and a traced run as its trace kept it, with what the agent's model said.
    const traced = JSON.parse(
      readFileSync(join(root, 'results', 'served', 'traces.jsonl'), 'utf8').split('\n')[0]!,
    ) as {
      seed: number;
      assistant_texts: string[];
    };
    expect(traced.assistant_texts.length).toBeGreaterThan(0);
    await page.locator('[data-sweep="2"]').click();
    await expect.poll(() => page.locator('#runs .pager').textContent()).toContain('of 200');
    await page.locator('#filters input[name="seed_min"]').fill(String(traced.seed));
    await page.locator('#filters input[name="seed_max"]').fill(String(traced.seed));
    await page.locator('#filters button[type="submit"]').click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('1 runs match');
    await page.getByRole('table', { name: 'runs' }).locator('tbody tr').first().click();
    await expect
      .poll(() => page.locator('#transcript-panes .msg.assistant').count(), { timeout: 30_000 })
      .toBe(traced.assistant_texts.length);
    await page.screenshot({ path: join(REPORTS, 'view-served-1280.png') });
    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
  }, 180_000);
});
