import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

/**
 * Specifiers a module names: `import … from`, `export … from`, `import '…'`, `import('…')`
 * with a literal, `require('…')`. Read from the text, not the syntax tree: a specifier in
 * a comment is followed too, which at worst hashes one file more.
 */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g;

/** What a relative specifier may leave out, in the order TypeScript and Node try them. */
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];

/** TypeScript's convention: `./helper.js` in a `.ts` project names `./helper.ts`. */
const SOURCE_OF: Readonly<Record<string, readonly string[]>> = {
  '.js': ['.ts', '.tsx'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

const isFile = (path: string): boolean => existsSync(path) && statSync(path).isFile();

/** The file a relative specifier from `from` names, if one exists. */
function resolveLocal(specifier: string, from: string): string | undefined {
  const base = resolve(dirname(from), specifier.split(/[?#]/)[0]!);
  const ext = extname(base);
  const candidates = [
    base,
    ...(SOURCE_OF[ext] ?? []).map((source) => base.slice(0, -ext.length) + source),
    ...EXTENSIONS.map((extension) => base + extension),
    ...EXTENSIONS.map((extension) => resolve(base, `index${extension}`)),
  ];
  return candidates.find(isFile);
}

/**
 * The user's own files a module loads: `entry` (absolute) first, then every file its
 * relative imports reach, transitively, in a stable order. Packages (bare specifiers) and
 * absolute paths are not followed: they are dependencies, not the project's code, and a
 * file under node_modules never is. What a sweep hashes, so that an edit to a helper the
 * agent imports refuses a resume as an edit to the agent does.
 */
export function localImportGraph(entry: string): string[] {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // importing it fails, and says so
    }
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[2]!;
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) continue;
      const file = resolveLocal(specifier, path);
      if (file === undefined || seen.has(file) || file.split(/[\\/]/).includes('node_modules')) continue;
      seen.add(file);
      queue.push(file);
    }
  }
  const [first, ...rest] = [...seen];
  return [first!, ...rest.sort()];
}
