import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The first TypeScript block of docs/langchain-middleware.md: the install example a user copies. */
function docsExample(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'langchain-middleware.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/langchain-middleware.md has no ts block');
  return block;
}

/** tsc's errors for a module in this repository (so langchain resolves), under the project's options. */
function typeErrors(source: string): string[] {
  const dir = mkdtempSync(join(ROOT, '.docs-example-'));
  try {
    writeFileSync(join(dir, 'example.ts'), source);
    const tsconfig = {
      extends: '../tsconfig.json',
      compilerOptions: { noEmit: true, rootDir: '..' },
      include: ['example.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const checked = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    return `${checked.stdout}${checked.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the docs’ LangChain example', () => {
  it('type-checks as written, state.spiralbench narrowing to each outcome’s own fields', () => {
    const index = join(ROOT, 'src', 'langchain', 'index.js');
    const source = [
      // What the example leaves to the reader's own code.
      'declare const users: { get(id: string): Promise<unknown> };',
      'declare const mailer: { send(input: { to: string; body: string }): Promise<string> };',
      'declare const logger: { info(event: unknown): void };',
      docsExample().replace("from 'spiralbench/langchain'", `from '${index}'`),
      'const outcome = state.spiralbench;',
      "if (outcome?.kind === 'escalated') console.log(outcome.payload);",
      "if (outcome?.kind === 'completed') console.log(outcome.finalText.length);",
      "if (outcome?.kind === 'budget_exhausted') console.log(outcome.toolCalls + 1);",
      'export {};',
    ].join('\n');
    expect(typeErrors(source)).toEqual([]);
  });
});
