import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runAgentSweep } from '../src/sweep/agent-sweep.js';

/*
 * The agent modules the docs show run as written: every ```ts fence of docs/*.md and the
 * README whose first line is a file-name comment (`// my-agent.ts`) is copied, unchanged,
 * into a folder inside this package, so `import … from 'spiralbench'` resolves to the
 * build as an installed package's would (and the frameworks to this repository's
 * node_modules), and run as an agent arm on the simulated model. Editing a snippet so it
 * no longer runs fails here. Needs `npm run build`.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SNIPPETS = join(ROOT, 'test', '.doc-snippets');
const FENCE = /```ts\n\/\/ ([\w-]+\.(?:ts|mjs))\n([\s\S]*?)```/g;

interface Snippet {
  readonly doc: string;
  readonly file: string;
  readonly source: string;
}

function snippets(): Snippet[] {
  const docs = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return docs.flatMap((doc) =>
    [...readFileSync(join(ROOT, doc), 'utf8').matchAll(FENCE)].map(([, file = '', body = '']) => ({
      doc,
      file,
      source: `// ${file}\n${body}`,
    })),
  );
}

const found = snippets();
const agents = found.filter((snippet) => snippet.source.includes('defineAgent('));

afterAll(() => rmSync(SNIPPETS, { recursive: true, force: true }));

describe('the agent snippets of the docs', () => {
  it('are found: the plain Anthropic SDK, AI SDK, LangChain and OpenAI SDK agents of docs/agents.md', () => {
    expect(agents.map((snippet) => `${snippet.doc}: ${snippet.file}`)).toEqual(
      expect.arrayContaining([
        'docs/agents.md: my-agent.ts',
        'docs/agents.md: my-ai-sdk-agent.ts',
        'docs/agents.md: my-langchain-agent.ts',
        'docs/agents.md: my-openai-agent.ts',
      ]),
    );
  });

  it.each(agents.map((snippet) => [`${snippet.doc}: ${snippet.file}`, snippet] as const))(
    '%s runs as written: no run fails, and some succeed',
    async (_name, snippet) => {
      mkdirSync(SNIPPETS, { recursive: true });
      const path = join(SNIPPETS, snippet.file);
      writeFileSync(path, snippet.source);
      const { records } = await runAgentSweep({ agent: path, scenarios: ['fetch-transform-write'], seeds: 8 });
      expect(records).toHaveLength(8);
      const failed = records.filter((record) => record.outcome === 'failed');
      expect(
        failed.map((record) => `seed ${record.seed}: ${JSON.stringify(record.failure_reason)}`),
        snippet.file,
      ).toEqual([]);
      expect(records.some((record) => record.verdict === 'success')).toBe(true);
    },
  );
});
