import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, type Arm } from './arms.js';
import { changedModules, moduleHash, recordedArms, shownModulePath } from './recorded-arms.js';

describe('recordedArms', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recorded-arms-'));
  const agent = join(dir, 'agents', 'mine.ts');
  const guard = join(dir, 'guard.ts');
  writeFileSync(guard, 'export default 1;\n');
  const arms: Arm[] = [
    ARM_PRESETS.get('article')!,
    { name: 'agent:mine', guards: [], agent: { kind: 'module', module: agent, export: 'mine', settings: { n: 1 } } },
    { name: 'capped', guards: [{ guard: 'cap', module: guard, settings: { max: 0 } }] },
  ];

  it('shows user modules from the working directory, with the sha256 of their text; built-in arms as they are', () => {
    const [article, mine, capped] = recordedArms(arms, dir);
    expect(article).toBe(arms[0]);
    expect(mine).toEqual({
      name: 'agent:mine',
      guards: [],
      agent: {
        kind: 'module',
        module: './agents/mine.ts',
        export: 'mine',
        hash: moduleHash(agent),
        settings: { n: 1 },
      },
    });
    expect(capped?.guards).toEqual([
      {
        guard: 'cap',
        module: './guard.ts',
        hash: moduleHash(guard),
        settings: { max: 0 },
      },
    ]);
    expect(moduleHash(guard)).toMatch(/^[0-9a-f]{64}$/);
    // The same arms from another checkout record the same bytes.
    const elsewhere = mkdtempSync(join(tmpdir(), 'recorded-arms-'));
    writeFileSync(join(elsewhere, 'guard.ts'), 'export default 1;\n');
    const moved = recordedArms(
      [{ name: 'capped', guards: [{ guard: 'cap', module: join(elsewhere, 'guard.ts'), settings: { max: 0 } }] }],
      elsewhere,
    );
    expect(moved).toEqual([capped]);
  });

  it('keeps the absolute path of a module outside the working directory', () => {
    expect(shownModulePath('/elsewhere/guard.ts', '/home/me/project')).toBe('/elsewhere/guard.ts');
    expect(shownModulePath('/home/me/project-b/guard.ts', '/home/me/project')).toBe('/home/me/project-b/guard.ts');
    expect(shownModulePath('/home/me/project/a/b.ts', '/home/me/project')).toBe('./a/b.ts');
  });

  it('names the modules whose text changed between two recordings', () => {
    const before = recordedArms(arms, dir);
    writeFileSync(guard, 'export default 2;\n');
    const after = recordedArms(arms, dir);
    expect(changedModules(before, after)).toEqual([
      expect.stringMatching(/^capped: \.\/guard\.ts \(sha256 [0-9a-f]{8}…, now [0-9a-f]{8}…\)$/),
    ]);
    expect(changedModules(after, after)).toEqual([]);
  });

  it('records and names the files a guard imports from the project: edited, added, no longer imported', () => {
    const guarded = join(dir, 'guarded.ts');
    const helper = join(dir, 'lib', 'limit.ts');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(helper, 'export const limit = 1;\n');
    writeFileSync(guarded, "import { limit } from './lib/limit.js';\nexport default limit;\n");
    const withHelper: Arm[] = [{ name: 'limited', guards: [{ guard: 'limit', module: guarded, settings: {} }] }];
    const before = recordedArms(withHelper, dir);
    expect(before[0]!.guards[0]).toMatchObject({
      module: './guarded.ts',
      imports: { './lib/limit.ts': moduleHash(helper) },
    });
    writeFileSync(helper, 'export const limit = 2;\n');
    const edited = recordedArms(withHelper, dir);
    // merge and --resume both name the file through changedModules.
    expect(changedModules(before, edited)).toEqual([
      expect.stringMatching(
        /^limited: \.\/lib\/limit\.ts, imported by \.\/guarded\.ts \(sha256 [0-9a-f]{8}…, now [0-9a-f]{8}…\)$/,
      ),
    ]);
    writeFileSync(guarded, 'export default 1;\n');
    const alone = recordedArms(withHelper, dir);
    expect(changedModules(edited, alone)).toEqual([
      expect.stringMatching(/^limited: \.\/guarded\.ts \(sha256/),
      expect.stringMatching(
        /^limited: \.\/lib\/limit\.ts, imported by \.\/guarded\.ts \(sha256 [0-9a-f]{8}…, no longer imported\)$/,
      ),
    ]);
    expect(alone[0]!.guards[0]).not.toHaveProperty('imports');
  });
});
