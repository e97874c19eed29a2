import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scaffoldFiles } from '../src/cli/init-scaffold.js';

/*
 * What a new user copies to install spiralbench must work. It is not on the npm registry
 * yet, so no page may tell them to install it by name (a 404): the pages give the tarball
 * `npm pack` makes (test/package.e2e.test.ts installs exactly that into a fresh project).
 * The release workflow that will publish it, and the install-script policy `npm ci` reads,
 * are checked here too.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  version: string;
  allowScripts?: Record<string, boolean>;
};

/** `npm install spiralbench`, `npm i -D spiralbench@^0.1`, `npm add spiralbench`: by name, from the registry. */
const BY_NAME = /\bnpm\s+(?:install|i|add)\b[^\n`#]*?(?<![\w./@-])spiralbench(?:@[\w.^~-]+)?(?=[\s`'"),;]|$)/m;

function pages(): Array<readonly [string, string]> {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const examples = readdirSync(join(ROOT, 'examples')).map((name) => `examples/${name}/README.md`);
  const files = [
    'README.md',
    ...docs,
    ...examples.filter((path) => readdirSync(join(ROOT, path, '..')).includes('README.md')),
  ];
  const scaffold = scaffoldFiles('schema.json', 'my-bench/customer-note.yaml').map(
    (file) => [`init's ${file.name}`, file.text] as const,
  );
  return [...files.map((path) => [path, read(path)] as const), ...scaffold];
}

describe('installing spiralbench, as the pages say', () => {
  it.each(pages())('%s never installs it by name from the registry, where it is not published', (_path, text) => {
    expect(text.match(BY_NAME)?.[0] ?? null).toBeNull();
  });

  it("the README's steps pack this version and install that tarball", () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm pack');
    expect(readme).toContain(`npm install --save-dev ../spiralbench/spiralbench-${pkg.version}.tgz`);
  });
});

describe('npm ci prints no install-script warning', () => {
  it("package.json's allowScripts decides every dependency with an install script in the lockfile", () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const scripted = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(scripted.length).toBeGreaterThan(0);
    expect(scripted.filter((name) => typeof pkg.allowScripts?.[name] !== 'boolean')).toEqual([]);
  });
});

describe('.github/workflows/release.yml', () => {
  interface Step {
    readonly run?: string;
    readonly uses?: string;
    readonly with?: Record<string, unknown>;
    readonly env?: Record<string, string>;
  }
  const workflow = parse(read('.github/workflows/release.yml')) as {
    on: { push: { tags: string[] } };
    jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }>;
  };
  const [job] = Object.values(workflow.jobs);
  const runs = job?.steps.map((step) => step.run ?? '') ?? [];
  const at = (command: string) => runs.findIndex((run) => run.includes(command));

  it('runs on a version tag, and checks that the tag names the version', () => {
    expect(workflow.on.push.tags).toEqual(['v*']);
    expect(runs.some((run) => run.includes('GITHUB_REF_NAME') && run.includes('package.json'))).toBe(true);
  });

  it('installs from the lockfile, lints and tests before it publishes, with provenance', () => {
    expect(at('npm ci')).toBeGreaterThanOrEqual(0);
    expect(at('npm test')).toBeGreaterThan(at('npm ci'));
    expect(at('biome ci')).toBeGreaterThan(at('npm ci'));
    expect(at('npm publish --provenance --access public')).toBeGreaterThan(at('npm test'));
    expect(job?.permissions['id-token']).toBe('write');
    const setup = job?.steps.find((step) => step.uses?.startsWith('actions/setup-node'));
    expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
  });
});
