import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

// Raw control characters: ESC (colours, cursor moves, the window title), BEL, CR, and C1's CSI.
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** lookup-readonly as `evil.yaml`, with terminal escape sequences in its prompt and in a record the run reads. */
function evilScenario(): string {
  const dir = tempDir();
  const path = join(dir, 'evil.yaml');
  const text = readFileSync('scenarios/lookup-readonly.yaml', 'utf8')
    .replace('id: lookup-readonly', 'id: evil')
    .replace(
      /^prompt: >\n/m,
      'prompt: "\\e]0;pwned\\x07\\e[2J\\rA customer asks for order o_1001.\\x9b31m"\nold_prompt: >\n',
    )
    .replace(
      'o_1001: { id: o_1001, customer: c_77, status: shipped,',
      'o_1001: { id: o_1001, customer: c_77, status: "sh\\e[8mipped",',
    );
  writeFileSync(path, text.replace(/^old_prompt: >\n(?: {2}.*\n)+/m, ''));
  return path;
}

describe('text from scenarios and users reaches the terminal with its control characters escaped', () => {
  it("replay prints a scenario's escape sequences as visible text", () => {
    const result = cli(['replay', '--scenario', evilScenario(), '--arm', 'none', '--seed', '1']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stdout).toContain('prompt: \\x1b]0;pwned\\x07\\x1b[2J A customer asks for order o_1001.\\x9b31m');
  });

  it('an error message quoting a value', () => {
    const result = cli(['run', '--scenario', 'nope\u001b[2J', '--seeds', '1', '--out', tempDir()]);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toMatch(RAW);
    expect(result.stderr).toContain("got 'nope\\x1b[2J'");
  });

  it("commander's own messages: an unknown command, a bad flag value", () => {
    for (const args of [['bo\u001b[2Jgus'], ['run', '--scenarios', 'lookup-readonly', '--seeds', '1\u001b[2J']]) {
      const result = cli(args);
      expect(result.status).toBe(2);
      expect(result.stderr).not.toMatch(RAW);
      expect(result.stderr).toContain('\\x1b[2J');
    }
  });

  it('validate naming a file', () => {
    const dir = tempDir();
    const path = join(dir, 'bad\u001b[2Jname.yaml');
    copyFileSync('scenarios/lookup-readonly.yaml', path);
    const result = cli(['validate', path]);
    expect(result.status).toBe(2);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(RAW);
    expect(result.stderr).toContain('bad\\x1b[2Jname.yaml');
  });
});
