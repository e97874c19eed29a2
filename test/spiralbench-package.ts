import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Makes `import … from 'spiralbench'` resolve under `dir` to this repository's build, as an
 * installed package would: `<dir>/node_modules/spiralbench/`, a package.json whose `exports`
 * name an index.js that re-exports the built (dist/) modules a user's tools module imports.
 * `npm run build` first.
 */
export function linkSpiralbenchPackage(dir: string): void {
  const pkg = join(dir, 'node_modules', 'spiralbench');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'spiralbench', type: 'module', exports: { '.': './index.js' } }),
  );
  const built = (path: string): string =>
    JSON.stringify(pathToFileURL(join(import.meta.dirname, '..', 'dist', path)).href);
  writeFileSync(
    join(pkg, 'index.js'),
    [
      `export { defineTool } from ${built('tools/define-tool.js')};`,
      `export { ToolError, invalidInput, notFound } from ${built('tools/tool-error.js')};`,
      `export { withFaults } from ${built('faults/with-faults.js')};`,
      '',
    ].join('\n'),
  );
}
