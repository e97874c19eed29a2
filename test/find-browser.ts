import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Where a Chromium-family browser is commonly installed (Debian, Ubuntu, Chrome, macOS). */
const KNOWN_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/** What the browser tests run against, or why they cannot run. */
export type BrowserLookup =
  | { readonly kind: 'found'; readonly path: string }
  | { readonly kind: 'missing'; readonly hint: string };

/**
 * Finds a browser for the end-to-end report tests: SPIRALBENCH_BROWSER if set, else a
 * system Chromium or Chrome, else one that playwright-core itself installed. Never downloads one.
 */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): BrowserLookup {
  const chosen = env['SPIRALBENCH_BROWSER'];
  if (chosen !== undefined && chosen !== '') {
    return existsSync(chosen)
      ? { kind: 'found', path: chosen }
      : { kind: 'missing', hint: `SPIRALBENCH_BROWSER=${chosen} does not exist` };
  }
  for (const path of KNOWN_PATHS) if (existsSync(path)) return { kind: 'found', path };
  const playwrights = safeExecutablePath();
  if (playwrights !== undefined && existsSync(playwrights)) return { kind: 'found', path: playwrights };
  return {
    kind: 'missing',
    hint: 'no Chromium or Chrome found: install one (Debian: apt-get install chromium) or set SPIRALBENCH_BROWSER=/path/to/chrome',
  };
}

function safeExecutablePath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** Whether a missing browser fails the run (in CI, where .ci/run installs one) or skips its tests. */
export function browserRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/** The flags a root, offline machine needs (see .ci/run, which installs Debian's chromium). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless browser with a profile of its own, for the browser tests: `path` from `findBrowser`. */
export function launchHeadless(
  path: string,
  options: { readonly width?: number; readonly height?: number; readonly offline?: boolean } = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'spiralbench-chromium-')), {
    executablePath: path,
    headless: true,
    args: CHROMIUM_ARGS,
    ...(options.width === undefined || options.height === undefined
      ? {}
      : { viewport: { width: options.width, height: options.height } }),
    ...(options.offline === true ? { offline: true } : {}),
  });
}
