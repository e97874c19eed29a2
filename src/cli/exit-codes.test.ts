import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS, exitCodesHelp } from './exit-codes.js';

describe('exit codes', () => {
  it('README lists the same codes with the same meanings as --help', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = /^## Exit codes\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((match) => [Number(match[1]), match[2]]);
    expect(rows).toEqual(EXIT_CODE_MEANINGS.map(([code, meaning]) => [code, meaning]));
  });

  it('every code is listed once', () => {
    const codes = EXIT_CODE_MEANINGS.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(
      exitCodesHelp()
        .split('\n')
        .filter((line) => /^ {2}\d/.test(line)),
    ).toHaveLength(codes.length);
  });
});
