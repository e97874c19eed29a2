import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { runAgentSweep } from './agent-sweep.js';
import { defineAgent } from '../agents/define-agent.js';

const MODULE = fileURLToPath(new URL('../../test/fixtures/agents/hand-written-loop.ts', import.meta.url));

describe('runAgentSweep', () => {
  it('a module path and the same definition in hand give the same records, judged as `run` judges them', async () => {
    const byPath = await runAgentSweep({ agent: MODULE, scenarios: ['fetch-transform-write'], seeds: 12 });
    const definition = (await import(MODULE)).default;
    const inHand = await runAgentSweep({ agent: definition, scenarios: ['fetch-transform-write'], seeds: 12 });
    expect(inHand.records).toEqual(byPath.records);
    expect(byPath.records.map((record) => record.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(byPath.records.every((record) => record.arm === 'agent:hand-written')).toBe(true);
    const cell = byPath.summary.cells[0]!;
    expect(cell.success.successes).toBe(byPath.records.filter((record) => record.verdict === 'success').length);
    expect(cell.success.successes).toBeGreaterThan(0);
    expect(cell.success.successes).toBeLessThan(12);
  });

  it('writes a results folder when asked, and refuses settings the agent’s schema rejects', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'agent-sweep-')), 'sweep');
    const { outDir } = await runAgentSweep({ agent: MODULE, scenarios: ['lookup-readonly'], seeds: 2, out });
    expect(outDir).toBe(out);
    expect(existsSync(join(out, 'runs.jsonl'))).toBe(true);
    const { z } = await import('zod');
    const strict = defineAgent({ settings: z.object({ turns: z.number().default(1) }), run: async () => '' });
    await expect(
      runAgentSweep({ agent: strict, scenarios: ['lookup-readonly'], seeds: 1, settings: { turns: 'x' } }),
    ).rejects.toThrow(UserInputError);
  });

  it("imports a scenario file's tools_module before reading it, as `run` does", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-sweep-tools-'));
    const defineTool = JSON.stringify(fileURLToPath(new URL('../tools/define-tool.js', import.meta.url)));
    writeFileSync(
      join(dir, 'tools.ts'),
      `import { defineTool } from ${defineTool};
export const note = defineTool({ name: 'save_note', description: 'Save a note.', input_schema: { type: 'object', properties: {} }, sideEffecting: true, concurrencySafe: false, run: async (_input, world) => { world.outbox.push({ key: 'n', value: { ok: true } }); return { ok: true }; } });
`,
    );
    writeFileSync(
      join(dir, 'note.yaml'),
      `id: note
title: Save a note
prompt: Save a note with save_note.
tools_module: ./tools.ts
tools: [save_note]
budget_class: standard
world: { records: {} }
plan:
  steps:
    - { id: save, tool: save_note, args: {} }
  final: Saved.
check:
  outbox:
    - { key: n, value: { ok: true } }
`,
    );
    const saver = defineAgent(async ({ tools }) => {
      await tools.call('save_note', {});
      return 'Saved.';
    });
    const { records } = await runAgentSweep({ agent: saver, scenarios: [join(dir, 'note.yaml')], seeds: 2 });
    expect(records.map((record) => record.verdict)).toEqual(['success', 'success']);
  });
});
