import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { loadPersona } from './loader.js';
import { ensembleFromText, ensembleText, loadEnsemble, MAX_MEMBERS } from './persona-ensemble.js';

function problems(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof UserInputError) return error.message.split('\n');
    throw error;
  }
  throw new Error('accepted');
}

const { persona } = loadPersona('default');

describe('persona ensemble files', () => {
  it('the bundled default has at least 30 members, each a whole persona, and says how it was made', () => {
    const ensemble = loadEnsemble('default');
    expect(ensemble.name).toBe('default');
    expect(ensemble.members.length).toBeGreaterThanOrEqual(30);
    expect(ensemble.hash).toMatch(/^[0-9a-f]{64}$/);
    // ABC-SMC's last moves separate most copies of one particle, not always all: the shipped
    // fit kept 39 distinct of 40 (docs/calibration.md). A copy is a valid draw of the
    // posterior; an ensemble made mostly of copies would not be one.
    const distinct = new Set(ensemble.members.map((member) => JSON.stringify({ ...member, id: '', description: '' })));
    expect(distinct.size).toBeGreaterThanOrEqual(Math.ceil(ensemble.members.length * 0.95));
    expect(Object.isFrozen(ensemble.members)).toBe(true);
  });

  it('reads back what it writes, byte for byte the same text for the same content', () => {
    const content = {
      header: ['a test ensemble', 'of two members'],
      provenance: { command: 'spiralbench calibrate ...', seed: 3, targets: { success: 0.5 }, schedule: [2, 1] },
      members: [
        { ...persona, id: 'member-0' },
        { ...persona, id: 'member-1', detour: { ...persona.detour, persistence: 0.5 } },
      ],
    };
    const text = ensembleText(content);
    expect(ensembleText(content)).toBe(text);
    expect(text.startsWith('# a test ensemble\n# of two members\n\nkind: persona-ensemble\n')).toBe(true);
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text).toContain('  targets: { success: 0.5 }\n');
    expect(text).toContain('    detour: { after_error: 0.8,');
    const ensemble = ensembleFromText('mine.yaml', 'mine.yaml', text);
    expect(ensemble.members).toEqual(content.members);
    expect(ensemble.name).toBe('mine.yaml');
  });

  it('names the file, the member and the field of every problem', () => {
    const text = ensembleText({
      header: [],
      provenance: {},
      members: [
        { ...persona, id: 'ok' },
        { ...persona, id: 'bad' },
      ],
    })
      .replace('persistence: 0.88', 'persistence: 1.5')
      .replace(/retry: \{ same: 0\.8/g, (match, offset: number, whole: string) =>
        offset > whole.indexOf('id: bad') ? 'retry: { same: "often"' : match,
      );
    expect(problems(() => ensembleFromText('e.yaml', 'e.yaml', text))).toEqual([
      'e.yaml: members.0.detour.persistence: Too big: expected number to be <=1',
      'e.yaml: members.1.retry.same: Invalid input: expected number, received string',
    ]);
    expect(problems(() => ensembleFromText('e.yaml', 'e.yaml', 'kind: persona-ensemble\nmembers: []\n'))).toEqual([
      'e.yaml: members: Too small: expected array to have >=1 items',
    ]);
    expect(problems(() => ensembleFromText('e.yaml', 'e.yaml', 'members: [{}]\nextra: 1\n'))).toEqual([
      'e.yaml: kind: Invalid input: expected "persona-ensemble"',
      'e.yaml: Unrecognized key: "extra"',
    ]);
    expect(problems(() => ensembleFromText('e.yaml', 'e.yaml', 'members: [\n'))[0]).toMatch(/^e\.yaml: valid YAML/);
    expect(MAX_MEMBERS).toBe(10_000);
  });

  it('reads a file through the bounded reader: a folder or a missing file is refused by name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ensemble-'));
    expect(problems(() => loadEnsemble(dir))).toEqual([`${dir}: a regular file (this is a folder)`]);
    expect(problems(() => loadEnsemble(join(dir, 'none.yaml')))).toEqual([
      `${join(dir, 'none.yaml')}: file not found or not readable`,
    ]);
    const path = join(dir, 'e.yaml');
    writeFileSync(path, ensembleText({ header: [], provenance: {}, members: [persona] }));
    expect(loadEnsemble(path).members).toHaveLength(1);
  });
});
