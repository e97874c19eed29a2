import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserInputError } from '../user-input-error.js';
import { defineTool, isDefinedTool } from './define-tool.js';
import { ToolError } from './tool-error.js';
import { createWorld } from './world.js';

const world = () => createWorld({ records: { users: { u_1: { id: 'u_1', name: 'Ada' } } } });

const getUser = defineTool({
  name: 'get_user_record',
  description: 'Fetch one user by id.',
  input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  sideEffecting: false,
  concurrencySafe: true,
  run: (input, w) => w.records['users']?.[String(input['id'])] ?? null,
});

/** The problems a definition is refused with. */
function problemsOf(make: () => unknown): Array<{ field: string; expected: string; source: string }> {
  try {
    make();
  } catch (error) {
    if (error instanceof UserInputError) return [...error.problems];
    throw error;
  }
  throw new Error('the definition was accepted');
}

describe('defineTool', () => {
  it('gives a frozen ToolSpec with the definition the model sees, marked as a user tool', () => {
    expect(isDefinedTool(getUser)).toBe(true);
    expect(Object.isFrozen(getUser)).toBe(true);
    expect(Object.isFrozen(getUser.definition.input_schema)).toBe(true);
    expect(getUser.definition).toEqual({
      name: 'get_user_record',
      description: 'Fetch one user by id.',
      input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    expect(getUser.latencyMs).toBe(250);
    expect(getUser.run({ id: 'u_1' }, world())).toEqual({ id: 'u_1', name: 'Ada' });
  });

  it('keeps its own copy of a JSON Schema, so changing the caller object changes nothing', () => {
    const schema = { type: 'object' as const, properties: { q: { type: 'string' } } };
    const tool = defineTool({
      name: 'search',
      description: 'Search.',
      input_schema: schema,
      sideEffecting: false,
      concurrencySafe: true,
      run: () => [],
    });
    schema.properties.q.type = 'number';
    expect(tool.definition.input_schema).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
  });

  it('turns a zod object into the JSON Schema the model sees and checks every input against it', () => {
    const tool = defineTool({
      name: 'add_note',
      description: 'Add a note.',
      input_schema: z.object({ text: z.string().min(1), pinned: z.boolean().default(false) }),
      sideEffecting: true,
      concurrencySafe: false,
      latencyMs: 40,
      run: ({ text, pinned }, w) => {
        w.outbox.push({ key: 'note', value: { text, pinned } });
        return { ok: true };
      },
    });
    expect(tool.definition.input_schema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 }, pinned: { type: 'boolean', default: false } },
      required: ['text'],
    });
    expect(tool.definition.input_schema).not.toHaveProperty('$schema');
    const w = world();
    expect(tool.run({ text: 'hi' }, w)).toEqual({ ok: true });
    expect(w.outbox).toEqual([{ key: 'note', value: { text: 'hi', pinned: false } }]);
    let refused: unknown;
    try {
      tool.run({ text: 3 }, w);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ToolError);
    expect(refused).toMatchObject({ code: 'invalid_input', status: 400, retryable: false });
    expect((refused as ToolError).message).toMatch(/^'text': /);
    // The handler never ran on the bad input.
    expect(w.outbox).toHaveLength(1);
  });

  it('refuses a bad definition naming the tool, the field and what was expected', () => {
    const base = {
      name: 'get_users',
      description: 'List users.',
      input_schema: { type: 'object' as const },
      sideEffecting: false,
      concurrencySafe: true,
      run: () => null,
    };
    expect(problemsOf(() => defineTool({ ...base, name: 'get users' }))).toEqual([
      {
        source: "defineTool('get users')",
        field: 'name',
        expected: "letters, digits, '_' or '-' (1 to 64), as the Messages API names tools; got 'get users'",
      },
    ]);
    expect(problemsOf(() => defineTool({ ...base, description: ' ' }))[0]).toMatchObject({
      source: "defineTool('get_users')",
      field: 'description',
    });
    expect(problemsOf(() => defineTool({ ...base, latencyMs: -5 }))[0]).toMatchObject({
      field: 'latencyMs',
      expected: 'a whole number of ms, 0 or more, got -5',
    });
    expect(
      problemsOf(() => defineTool({ ...base, input_schema: { type: 'string' } as unknown as { type: 'object' } }))[0],
    ).toMatchObject({ field: 'input_schema', expected: expect.stringContaining("type 'object'") });
    expect(problemsOf(() => defineTool({ ...base, input_schema: z.string() as never }))[0]).toMatchObject({
      field: 'input_schema',
      expected: "a zod object schema, got type 'string'",
    });
    expect(problemsOf(() => defineTool({ ...base, run: undefined as never }))[0]).toMatchObject({
      field: 'run',
      expected: 'a function (input, world) => result, got nothing',
    });
    expect(problemsOf(() => defineTool({ ...base, sideEffecting: 'yes' as never }))[0]).toMatchObject({
      field: 'sideEffecting',
    });
  });

  it('recognises a tool by its shape, not its class: a copy made by another spiralbench passes, a look-alike without run does not', () => {
    expect(isDefinedTool({ ...getUser })).toBe(true);
    expect(isDefinedTool({ ...getUser, run: undefined })).toBe(false);
    expect(isDefinedTool({ ...getUser, kind: 'tool' })).toBe(false);
    expect(isDefinedTool(null)).toBe(false);
  });

  it("keeps a write's read-back, frozen, and refuses one without a tool, arguments or count field", () => {
    const note = {
      name: 'save_note',
      description: 'Save a note.',
      input_schema: { type: 'object' as const, properties: { id: { type: 'string' } } },
      sideEffecting: true,
      concurrencySafe: false,
      run: () => ({ saved: true }),
    };
    const tool = defineTool({ ...note, readBack: { tool: 'list_notes', input: { customer: 'id' }, count: 'count' } });
    expect(tool.readBack).toEqual({ tool: 'list_notes', input: { customer: 'id' }, count: 'count' });
    expect(Object.isFrozen(tool.readBack?.input)).toBe(true);
    expect(defineTool(note).readBack).toBeUndefined();
    const bad = { tool: 'list notes', input: { customer: 7 }, count: '' } as never;
    expect(problemsOf(() => defineTool({ ...note, readBack: bad })).map((problem) => problem.field)).toEqual([
      'readBack',
    ]);
    const self = { tool: 'save_note', input: {}, count: 'count' };
    expect(problemsOf(() => defineTool({ ...note, readBack: self }))[0]?.expected).toContain(
      "another tool than 'save_note'",
    );
    const read = { ...note, sideEffecting: false, readBack: { tool: 'list_notes', input: {}, count: 'count' } };
    expect(problemsOf(() => defineTool(read))[0]?.expected).toContain('only a write is read back');
  });

  it('lets run return a promise, which the tool hands back as it is', async () => {
    const slow = defineTool({
      name: 'slow_read',
      description: 'Reads slowly.',
      input_schema: { type: 'object' },
      sideEffecting: false,
      concurrencySafe: true,
      run: async () => ({ ok: true }),
    });
    await expect(Promise.resolve(slow.run({}, world()))).resolves.toEqual({ ok: true });
  });
});
