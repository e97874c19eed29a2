import { cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliAsync, tempDir } from './cli-helpers.js';
import { browserRequired, findBrowser, launchHeadless } from './find-browser.js';

const BROWSER = findBrowser();
if (BROWSER.kind === 'missing') {
  if (browserRequired()) throw new Error(`the HTML report's browser tests need a browser under CI: ${BROWSER.hint}`);
  console.log(`skipping the HTML report's browser tests: ${BROWSER.hint}`);
}
const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));
const EVIL_SCENARIO = '<img src=x onerror=alert(1)>';
const EVIL_ARM = '</script><script>alert(2)</script>';
const SCENARIO = 'fetch-transform-write';

let root = '';
let sweep = '';
let hostile = '';
/** How many arms the ablation group expands to (it grows as guards land). */
let arms = 0;

/** A copy of a sweep with its scenario and one arm renamed to hostile strings, in every file. */
function hostileCopy(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const rename = <T extends Record<string, unknown>>(row: T, fields: readonly string[]): T => {
    const out: Record<string, unknown> = { ...row };
    for (const field of fields) {
      if (out[field] === SCENARIO) out[field] = EVIL_SCENARIO;
      if (out[field] === 'all') out[field] = EVIL_ARM;
    }
    return out as T;
  };
  const summary = JSON.parse(readFileSync(join(from, 'summary.json'), 'utf8')) as Record<
    string,
    Array<Record<string, unknown>>
  >;
  summary['scenarios'] = summary['scenarios']!.map((row) => rename(row, ['id']));
  summary['arms'] = summary['arms']!.map((row) => rename(row, ['name']));
  summary['cells'] = summary['cells']!.map((row) => rename(row, ['scenario', 'arm']));
  summary['pass_hat_k'] = summary['pass_hat_k']!.map((row) => rename(row, ['arm']));
  writeFileSync(join(to, 'summary.json'), JSON.stringify(summary));
  const lines = (file: string, map: (row: Record<string, unknown>) => Record<string, unknown>) => {
    const rows = readFileSync(join(from, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => map(JSON.parse(line) as Record<string, unknown>));
    writeFileSync(join(to, file), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
  };
  lines('runs.jsonl', (row) => rename(row, ['scenario', 'arm']));
  lines('traces.jsonl', (row) => ({
    ...rename(row, ['scenario', 'arm']),
    record: rename(row['record'] as Record<string, unknown>, ['scenario', 'arm']),
    replay: String(row['replay']).replace(SCENARIO, EVIL_SCENARIO).replace('--arm all ', `--arm ${EVIL_ARM} `),
    assistant_texts: (row['assistant_texts'] as string[]).map((text, i) =>
      i === 0 ? `${text} <script>alert(3)</script>` : text,
    ),
  }));
}

function report(dir: string, out: string, ...flags: string[]) {
  const result = cli(['report', dir, '--html', out, ...flags]);
  expect(result.status, result.stderr).toBe(0);
  return result;
}

// One small ablation sweep for every test here, and a copy of it with hostile names.
beforeAll(async () => {
  root = tempDir('spiralbench-report-');
  sweep = join(root, 'ablation');
  const run = await cliAsync([
    'run',
    '--scenario',
    SCENARIO,
    '--arms',
    'ablation',
    '--seeds',
    '40',
    '--workers',
    '2',
    '--out',
    sweep,
  ]);
  expect(run.status, run.stderr).toBe(0);
  arms = (JSON.parse(readFileSync(join(sweep, 'summary.json'), 'utf8')) as { arms: unknown[] }).arms.length;
  expect(arms).toBeGreaterThanOrEqual(10);
  hostile = join(root, 'hostile');
  hostileCopy(sweep, hostile);
});

describe('spiralbench report', () => {
  it('writes the HTML report, the Markdown headline and the CSV, and says where', () => {
    const out = join(root, 'out');
    const result = report(
      sweep,
      join(out, 'report.html'),
      '--markdown',
      join(out, 'summary.md'),
      '--csv',
      join(out, 'headline.csv'),
    );
    expect(result.stdout).toMatch(
      /^html: .*report\.html \(\d+ KiB, 6 charts, \d+ of \d+ traced runs with a timeline\)\nmarkdown: .*summary\.md\ncsv: .*headline\.csv\n$/,
    );
    const markdown = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(markdown).toMatch(
      new RegExp(
        `^## spiralbench report: ablation\n\n${(arms * 40).toLocaleString('en-US')} runs · model simulated · sweep seed 0 · run seeds 1\\.\\.40 · sweep finished \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\n`,
      ),
    );
    expect(markdown).toMatch(/^\| none \| 40 \| \d+\.\d% \[\d+\.\d, \d+\.\d\] \| — \| /m);
    expect(readFileSync(join(out, 'headline.csv'), 'utf8').trim().split('\n')).toHaveLength(arms + 1);
  });

  it('prints the Markdown headline on stdout with --markdown alone, and the same bytes every time', () => {
    const first = cli(['report', sweep, '--markdown']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^## spiralbench report: ablation\n/);
    expect(cli(['report', sweep, '--markdown']).stdout).toBe(first.stdout);
    const a = join(root, 'same-a.html');
    const b = join(root, 'same-b.html');
    report(sweep, a);
    report(sweep, b);
    expect(readFileSync(a)).toEqual(readFileSync(b));
  });

  it('still reports a sweep without traces.jsonl and meta.json, saying what is left out', () => {
    const bare = join(root, 'bare');
    cpSync(sweep, bare, { recursive: true });
    rmSync(join(bare, 'traces.jsonl'));
    rmSync(join(bare, 'meta.json'));
    const result = report(bare, join(root, 'bare.html'));
    expect(result.stdout).toContain(`note: ${bare} has no traces.jsonl: the report has no drill-down`);
    expect(result.stdout).toContain('no drill-down)');
    expect(readFileSync(join(root, 'bare.html'), 'utf8')).toContain('This sweep has no <code>traces.jsonl</code>');
  });

  it('replaces a report it wrote, but not a file it did not write (exit 2, naming it) unless --overwrite', () => {
    const path = join(root, 'notes.html');
    writeFileSync(path, '<p>my notes</p>\n');
    const refused = cli(['report', sweep, '--html', path]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      `error: ${path}: a new path or an HTML report spiralbench wrote; the file there is not one, and this would replace it: add --overwrite to replace it, or choose another --html\n`,
    );
    const run = cli(['run', '-s', SCENARIO, '-a', 'none', '-n', '2', '-o', join(root, 'never'), '--report', path]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`error: ${path}: a new path or an HTML report spiralbench wrote;`);
    expect(statSync(join(root, 'never'), { throwIfNoEntry: false })).toBeUndefined();
    expect(readFileSync(path, 'utf8')).toBe('<p>my notes</p>\n');
    report(sweep, path, '--overwrite');
    const ours = readFileSync(path, 'utf8');
    expect(ours).toMatch(/^<!doctype html>\n/);
    report(sweep, path);
    expect(readFileSync(path, 'utf8')).toBe(ours);
  });

  it('writes --markdown and --csv over its own earlier headline, never over a file it did not write', () => {
    for (const [flag, name] of [
      ['--markdown', 'README.md'],
      ['--csv', 'data.csv'],
    ] as const) {
      const path = join(root, name);
      writeFileSync(path, '# my project\n');
      const refused = cli(['report', sweep, flag, path]);
      expect(refused.status, flag).toBe(2);
      expect(refused.stderr).toContain(
        `error: ${path}: a new path or a ${flag.slice(2) === 'csv' ? 'CSV' : 'Markdown'} headline spiralbench wrote;`,
      );
      expect(refused.stderr).toContain(`choose another ${flag}`);
      expect(readFileSync(path, 'utf8')).toBe('# my project\n');
      expect(cli(['report', sweep, flag, path, '--overwrite']).status, flag).toBe(0);
      const ours = readFileSync(path, 'utf8');
      const again = cli(['report', sweep, flag, path]);
      expect(again.status, again.stderr).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(ours);
    }
  });

  it('refuses a folder that is not a finished sweep, with exit code 2', () => {
    const result = cli(['report', join(root, 'nothing-here')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: .*nothing-here: a sweep folder/);
  });

  it('makes the report of a 100,000-run sweep, under 5 MB', () => {
    // 100,000 runs made from the small sweep's lines (two arms, 50,000 seeds each): the
    // report's work is reading, binning and rendering, whatever the runs say.
    const big = join(root, 'big');
    mkdirSync(big);
    const runs = readFileSync(join(sweep, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const byArm = (arm: string) => runs.filter((run) => run['arm'] === arm);
    const chunks: string[] = [];
    for (const arm of ['none', 'all']) {
      const pool = byArm(arm);
      for (let seed = 1; seed <= 50_000; seed++) chunks.push(JSON.stringify({ ...pool[seed % pool.length], seed }));
    }
    writeFileSync(join(big, 'runs.jsonl'), `${chunks.join('\n')}\n`);
    // The summary must count the runs that are there: a report refuses a folder whose runs do not add up.
    const summary = JSON.parse(readFileSync(join(sweep, 'summary.json'), 'utf8')) as {
      seeds: { base: number; count: number };
      arms: Array<{ name: string }>;
      cells: Array<{ arm: string; runs: number }>;
      pass_hat_k: Array<{ arm: string }>;
    };
    const kept = (arm: string) => arm === 'none' || arm === 'all';
    summary.seeds = { base: 1, count: 50_000 };
    summary.arms = summary.arms.filter((arm) => kept(arm.name));
    summary.cells = summary.cells.filter((cell) => kept(cell.arm)).map((cell) => ({ ...cell, runs: 50_000 }));
    summary.pass_hat_k = summary.pass_hat_k.filter((entry) => kept(entry.arm));
    writeFileSync(join(big, 'summary.json'), JSON.stringify(summary, null, 2));
    for (const file of ['traces.jsonl', 'meta.json']) cpSync(join(sweep, file), join(big, file));
    const out = join(root, 'big.html');
    // How long this takes is measured by `farm-bench` (docs/performance.md), not asserted here.
    report(big, out);
    expect(statSync(out).size).toBeLessThan(5 * 1024 * 1024);
  });
});

describe.skipIf(BROWSER.kind === 'missing')('the HTML report in headless Chromium, offline', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];
  let requests: string[] = [];
  let dialogs: string[] = [];

  beforeAll(async () => {
    if (BROWSER.kind === 'missing') return;
    context = await launchHeadless(BROWSER.path, { width: 1440, height: 900, offline: true });
    // Nothing may leave the page: a request for anything but the report itself is refused and recorded.
    await context.route('**/*', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort(),
    );
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requests.push(request.url()));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await context?.close();
  });

  async function open(html: string): Promise<string> {
    problems = [];
    requests = [];
    dialogs = [];
    const url = pathToFileURL(html).href;
    await page.goto(url, { waitUntil: 'load' });
    return url;
  }

  it('shows every chart as SVG with its Vega-Lite spec, makes no request and logs no error; first screen kept in reports/', async () => {
    const html = join(root, 'browser.html');
    report(sweep, html);
    const url = await open(html);
    const charts = await page.$$eval('figure.chart', (figures) =>
      figures.map((figure) => {
        const svg = figure.querySelector(':scope > svg');
        const spec = figure.querySelector('script.vega-lite-spec');
        const box = svg?.getBoundingClientRect();
        type Spec = { $schema?: string; data?: { values?: unknown[] }; hconcat?: Spec[]; layer?: Spec[]; spec?: Spec };
        // Data rows anywhere in the spec: at the top, or in concatenated views.
        const rows = (s: Spec | undefined): number =>
          s === undefined
            ? 0
            : (s.data?.values?.length ?? 0) +
              [...(s.hconcat ?? []), ...(s.layer ?? [])].reduce((sum, sub) => sum + rows(sub), 0) +
              rows(s.spec);
        const parsed = spec === null ? undefined : (JSON.parse(spec.textContent ?? '') as Spec);
        return {
          width: box?.width ?? 0,
          height: box?.height ?? 0,
          marks: svg?.querySelectorAll('path, text, line').length ?? 0,
          schema: parsed?.$schema,
          values: rows(parsed),
        };
      }),
    );
    // One scenario: headline, two distributions and the tail; then two heatmaps.
    expect(charts).toHaveLength(6);
    for (const chart of charts) {
      expect(chart.width).toBeGreaterThan(200);
      expect(chart.height).toBeGreaterThan(80);
      expect(chart.marks).toBeGreaterThan(20);
      expect(chart.schema).toMatch(/vega-lite\/v6\.json$/);
      expect(chart.values).toBeGreaterThan(0);
    }
    expect(await page.locator('h1').textContent()).toBe('ablation');
    expect(await page.locator('#scenario-1 table tbody tr').count()).toBe(arms);
    mkdirSync(REPORTS, { recursive: true });
    await page.screenshot({ path: join(REPORTS, 'report-first-screen.png') });
    cpSync(html, join(REPORTS, 'e2e-report.html'));
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
  });

  it('resolves every in-page link, from the table of contents, the drill-down table and the charts', async () => {
    await open(join(root, 'browser.html'));
    const targets = await page.evaluate(() => {
      const hrefs = [...document.querySelectorAll('a')].map(
        (a) => a.getAttribute('href') ?? a.getAttribute('xlink:href') ?? '',
      );
      return hrefs.map((href) => ({
        href,
        found: href.startsWith('#') && document.getElementById(href.slice(1)) !== null,
      }));
    });
    expect(targets.length).toBeGreaterThan(20);
    expect(targets.filter((target) => !target.found)).toEqual([]);

    await page.locator('#drill-down table a[href="#run-1"]').click();
    expect(new URL(page.url()).hash).toBe('#run-1');
    await expect.poll(() => page.locator('#run-1').isVisible()).toBe(true);
    expect(await page.locator('#run-1 code.cmd').textContent()).toMatch(
      /^spiralbench replay --scenario fetch-transform-write --arm \S+ --seed \d+$/,
    );
    expect(await page.locator('#run-1 ol.timeline li.ev-model').count()).toBeGreaterThan(0);

    // A run marked in a distribution chart opens its timeline.
    const marker = page.locator('figure.chart svg a').first();
    const href = await marker.getAttribute('xlink:href');
    expect(href).toMatch(/^#run-\d+$/);
    await marker.click();
    expect(new URL(page.url()).hash).toBe(href);
    expect(problems).toEqual([]);
  });

  it('renders hostile names from the results as text, and no script runs', async () => {
    const html = join(root, 'hostile.html');
    report(hostile, html);
    const url = await open(html);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script:not([type="application/json"])').count()).toBe(0);
    expect(await page.locator('#scenario-1 h3').textContent()).toContain(EVIL_SCENARIO);
    expect(await page.locator('#scenario-1 table tbody').textContent()).toContain(EVIL_ARM);
    expect(await page.locator('body').textContent()).toContain('<script>alert(3)</script>');
    // The specs still parse: the hostile arm name did not close their script elements.
    const specs = await page.$$eval('script.vega-lite-spec', (scripts) =>
      scripts.map((script) => JSON.stringify(JSON.parse(script.textContent ?? ''))),
    );
    expect(specs).toHaveLength(6);
    expect(specs.filter((spec) => spec.includes(EVIL_ARM)).length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
  });
});

describe.skipIf(BROWSER.kind === 'missing')('the HTML report at 1280 and 1920 px wide', () => {
  /** Long user-chosen arm names, as custom arms and agent modules have them. */
  const LONG_ARMS = ['nodouble-article-with-journal', 'retry-everything-twice-then-stop'];
  const AGENT = fileURLToPath(new URL('./fixtures/agents/hand-written-loop.ts', import.meta.url));
  let html = '';
  let context: BrowserContext;

  beforeAll(async () => {
    if (BROWSER.kind === 'missing') return;
    const dir = tempDir('spiralbench-report-widths-');
    const armsFile = join(dir, 'arms.yaml');
    writeFileSync(
      armsFile,
      [
        'arms:',
        `  - name: ${LONG_ARMS[0]}`,
        '    guards: [{ guard: stuck }, { guard: budget }, { guard: repeat }, { guard: classify }, { guard: journal }]',
        `  - name: ${LONG_ARMS[1]}`,
        '    guards: [{ guard: classify }, { guard: recover }]',
        '',
      ].join('\n'),
    );
    // The agent arm comes fifth, after the --arms arms: the place the old palette drew in red.
    const sweepDir = join(dir, 'sweep');
    const run = cli([
      'run',
      '-s',
      'fetch-transform-write,send-email-partial-write',
      '-a',
      `none,article,${LONG_ARMS.join(',')}`,
      '--arms-file',
      armsFile,
      '--agent',
      AGENT,
      '-n',
      '8',
      '-w',
      '1',
      '-o',
      sweepDir,
    ]);
    expect(run.status, run.stderr).toBe(0);
    html = join(dir, 'widths.html');
    report(sweepDir, html);
    context = await launchHeadless(BROWSER.path, { offline: true });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
  });

  it.each([1280, 1920])(
    'at %i px: no table scrolls sideways, no command is clipped, no label is cut, no arm is drawn in a verdict colour',
    async (width) => {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
      mkdirSync(REPORTS, { recursive: true });
      await page.screenshot({ path: join(REPORTS, `report-${width}.png`) });
      await page.locator('#scenario-1 .table-wrap').screenshot({ path: join(REPORTS, `report-${width}-table.png`) });
      const seen = await page.evaluate(() => {
        const wide = (element: Element) => element.scrollWidth > element.clientWidth + 1;
        const commands = [...document.querySelectorAll('td code.cmd')];
        return {
          page: document.documentElement.scrollWidth,
          tables: [...document.querySelectorAll('.table-wrap')].filter(wide).map((wrap) => wrap.closest('[id]')?.id),
          clipped: commands
            .filter((code) => {
              const cell = code.closest('td')!.getBoundingClientRect();
              const box = code.getBoundingClientRect();
              return wide(code) || box.right > cell.right + 1 || box.left < cell.left - 1;
            })
            .map((code) => code.textContent),
          commands: commands.length,
          cut: [...document.querySelectorAll('figure.chart svg text')]
            .map((text) => text.textContent ?? '')
            .filter((text) => text.includes('…')),
          labels: [...document.querySelectorAll('figure.chart')].map((figure) =>
            [...figure.querySelectorAll('svg text')].map((text) => text.textContent ?? ''),
          ),
          swatches: [...document.querySelectorAll('#scenario-1 td.arm')].map((cell) => ({
            arm: cell.textContent ?? '',
            colour: getComputedStyle(cell.querySelector('.swatch')!).backgroundColor,
          })),
        };
      });
      await page.close();
      expect(seen.page).toBeLessThanOrEqual(width);
      expect(seen.tables).toEqual([]);
      expect(seen.commands).toBeGreaterThan(0);
      expect(seen.clipped).toEqual([]);
      expect(seen.cut).toEqual([]);
      // Whole names in the headline chart, the tail's legend and the ablation heat map.
      for (const arm of [...LONG_ARMS, 'agent:hand-written'])
        expect(seen.labels.filter((texts) => texts.includes(arm)).length, arm).toBeGreaterThanOrEqual(3);
      // No arm in the red, amber or green of the verdicts (harmful, escalated, success).
      const reddish = seen.swatches.filter(({ colour }) => {
        const [r = 0, g = 0, b = 0] = (colour.match(/\d+/g) ?? []).map(Number);
        const max = Math.max(r, g, b);
        const min = Math.min(r, g, b);
        if (max === 0 || (max - min) / max < 0.3) return false;
        const hue =
          max === r
            ? (((g - b) / (max - min)) * 60 + 360) % 360
            : max === g
              ? ((b - r) / (max - min)) * 60 + 120
              : ((r - g) / (max - min)) * 60 + 240;
        return hue < 150 || hue > 340;
      });
      expect(seen.swatches.map(({ arm }) => arm)).toContain('agent:hand-written');
      expect(reddish).toEqual([]);
    },
  );
});
