import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

describe('docs/serve.md', () => {
  const doc = read('docs/serve.md');

  it.each(['examples/serve/agent.py', 'examples/serve/agent.ts'])(
    'shows %s as it is, the file the tests run',
    (path) => {
      const fence = path.endsWith('.py') ? 'python' : 'ts';
      expect(doc).toContain(`\`\`\`${fence}\n${read(path)}\`\`\``);
    },
  );

  it('is linked from the README', () => {
    expect(read('README.md')).toContain('[docs/serve.md](docs/serve.md)');
  });
});
