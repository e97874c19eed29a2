import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli } from './cli-helpers.js';

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

  it('says what a fresh project needs to run the TypeScript example: an ES module, and its packages', () => {
    // The example uses top-level await, which tsx refuses in a "type": "commonjs" project (npm init's default).
    expect(read('examples/serve/agent.ts')).toMatch(/^\s*await main\(/m);
    expect(doc).toContain('"type": "module"');
    expect(doc).toContain('npm install @anthropic-ai/sdk @modelcontextprotocol/sdk tsx');
  });

  it("tells agents, in the doc and in serve --help, to send one run's tool calls one at a time", () => {
    expect(doc).toContain("Send one run's tool calls one at a time");
    const help = cli(['serve', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("Send one run's tool calls one at a time for reproducible runs");
  });

  it('serves as many seeds by default as the examples run by default', () => {
    const help = cli(['serve', '--help']).stdout;
    expect(help.replace(/\s+/g, ' ')).toMatch(/runs in the sweep [^-]*\(default: 20\)/);
    expect(read('examples/serve/agent.ts')).toContain("runs = '20'");
  });

  it('is linked from the README', () => {
    expect(read('README.md')).toContain('[docs/serve.md](docs/serve.md)');
  });
});
