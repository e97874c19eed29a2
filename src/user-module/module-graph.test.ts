import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localImportGraph } from './module-graph.js';

describe('localImportGraph', () => {
  it("follows the module's relative imports, re-exports and literal dynamic imports, transitively, once each", () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'module-graph-')), 'project');
    mkdirSync(join(dir, 'lib', 'parts'), { recursive: true });
    mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
    const file = (path: string, text: string) => {
      writeFileSync(join(dir, path), text);
      return join(dir, path);
    };
    const entry = file(
      'agent.ts',
      [
        "import { a } from './lib/a.js';", // TypeScript's .js naming a .ts file
        "import 'zod';", // a package: not followed
        "export * from './lib/parts';", // a folder's index
        "const later = await import('./lib/late.mjs');",
        "import '../outside-but-relative.ts';",
        "import './node_modules/dep/index.js';",
        "import './missing.js';",
      ].join('\n'),
    );
    const a = file('lib/a.ts', "import { b } from './b';\nexport const a = 1;\n");
    const b = file('lib/b.ts', "import { a } from './a.js';\nexport const b = 2;\n"); // a cycle
    const index = file('lib/parts/index.ts', "const c = require('../b.ts');\n");
    const late = file('lib/late.mjs', 'export default 3;\n');
    file('node_modules/dep/index.js', 'export default 4;\n');
    const outside = join(dir, '..', 'outside-but-relative.ts');
    writeFileSync(outside, 'export {};\n');
    expect(localImportGraph(entry)).toEqual([entry, ...[a, b, index, late, outside].sort()]);
  });

  it('is the module alone when it imports nothing of the project', () => {
    const dir = mkdtempSync(join(tmpdir(), 'module-graph-'));
    const entry = join(dir, 'alone.mjs');
    writeFileSync(entry, "import { z } from 'zod';\nexport default z;\n");
    expect(localImportGraph(entry)).toEqual([entry]);
  });
});
