import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { deepFreeze } from '../memo/frozen-json.js';
import { UserInputError } from '../user-input-error.js';
import { invalidInput } from './tool-error.js';
import type { ReadBack } from './read-back.js';
import type { ToolSpec } from './tool-spec.js';
import type { Json, World } from './world.js';

/** A JSON Schema for a tool's input, as the Messages API takes it: an object schema. */
export type JsonSchemaObject = Tool['input_schema'];

/**
 * A zod object schema (zod 4, any copy of it): its JSON Schema is what the model sees, and
 * every input is checked against it before `run`.
 */
export type ZodInputSchema = z.ZodType<Record<string, unknown>>;

/** What `run` receives: the zod schema's output, or the input as the model sent it. */
export type ToolInput<S> = S extends ZodInputSchema ? z.output<S> : Record<string, unknown>;

/**
 * A tool of the user's, as `defineTool` takes it.
 *
 * @example
 * const saveNote: ToolDefinition<typeof noteInput> = {
 *   name: 'save_note',
 *   description: 'Save a note on a customer.',
 *   input_schema: noteInput, // z.object({ customer_id: z.string(), text: z.string() })
 *   sideEffecting: true,
 *   concurrencySafe: false,
 *   run: ({ customer_id, text }, world) => {
 *     world.outbox.push({ key: `note:${customer_id}`, value: text });
 *     return { saved: true };
 *   },
 * };
 */
export interface ToolDefinition<S extends JsonSchemaObject | ZodInputSchema> {
  /** The name the model calls it by (letters, digits, `_` and `-`, at most 64). */
  readonly name: string;
  /** What the model reads to decide when and how to call it. */
  readonly description: string;
  /** A JSON Schema object (`{ type: 'object', properties, required }`) or a zod object. */
  readonly input_schema: S;
  /** Writes to the world; the executor never retries it automatically. */
  readonly sideEffecting: boolean;
  /** May run alongside other calls of the same turn. */
  readonly concurrencySafe: boolean;
  /**
   * Virtual time a successful call takes, in ms.
   * @default 250
   */
  readonly latencyMs?: number;
  /**
   * For a write: the read-only tool that counts its writes, for write verification (the
   * `verify` guard reads it before and after each call). @default none
   */
  readonly readBack?: ReadBack;
  /**
   * The tool itself: its JSON result, or a promise of it. Throw a ToolError (`invalidInput`,
   * `notFound`) for a request it refuses; anything else thrown becomes a handler exception
   * the model sees, never a crash. The world's records are frozen: write to `world.outbox`.
   */
  readonly run: (input: ToolInput<S>, world: World) => Json | Promise<Json>;
}

/**
 * A tool made by `defineTool`: a ToolSpec a scenario's `tools_module` can offer, marked by
 * `kind` rather than by class, since a user's module may load its own copy of spiralbench.
 *
 * @example
 * const tool: DefinedTool = defineTool(saveNote);
 * const result = await tool.run({ customer_id: 'c_7', text: 'called back' }, world); // a ToolSpec like any other
 */
export interface DefinedTool extends ToolSpec {
  readonly kind: 'spiralbench.tool';
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A catalogue tool's typical latency, for a tool that does not say. */
const DEFAULT_LATENCY_MS = 250;

/**
 * A tool of your own, for scenarios (`tools_module:`) and for `withFaults`. Checked once,
 * here, and frozen: every run of a sweep shares it.
 *
 * @example
 * ```ts
 * import { defineTool, notFound } from 'spiralbench';
 *
 * export const getUsers = defineTool({
 *   name: 'get_users',
 *   description: 'List the users of a team by team id.',
 *   input_schema: { type: 'object', properties: { team: { type: 'string' } }, required: ['team'] },
 *   sideEffecting: false,
 *   concurrencySafe: true,
 *   run: async ({ team }, world) => {
 *     const found = world.records['teams']?.[String(team)];
 *     if (found === undefined) throw notFound(`no team '${String(team)}'`);
 *     return found;
 *   },
 * });
 * ```
 */
export function defineTool<S extends JsonSchemaObject | ZodInputSchema>(definition: ToolDefinition<S>): DefinedTool {
  const where = `defineTool(${typeof definition?.name === 'string' ? `'${definition.name}'` : ''})`;
  const fail = (field: string, expected: string): never => {
    throw UserInputError.single(where, field, expected);
  };
  if (typeof definition !== 'object' || definition === null) return fail('', 'a tool definition object');
  const {
    name,
    description,
    input_schema,
    sideEffecting,
    concurrencySafe,
    latencyMs = DEFAULT_LATENCY_MS,
  } = definition;
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    fail('name', `letters, digits, '_' or '-' (1 to 64), as the Messages API names tools; got ${shown(name)}`);
  if (typeof description !== 'string' || description.trim() === '')
    fail('description', 'a non-empty string: the model reads it to decide when to call the tool');
  if (typeof sideEffecting !== 'boolean') fail('sideEffecting', `true or false, got ${shown(sideEffecting)}`);
  if (typeof concurrencySafe !== 'boolean') fail('concurrencySafe', `true or false, got ${shown(concurrencySafe)}`);
  if (typeof latencyMs !== 'number' || !Number.isInteger(latencyMs) || latencyMs < 0)
    fail('latencyMs', `a whole number of ms, 0 or more, got ${shown(latencyMs)}`);
  const { readBack } = definition;
  if (readBack !== undefined && !isReadBack(readBack))
    fail(
      'readBack',
      `{ tool: the read's name, input: { readArgument: 'writeArgument', ... }, count: the answer's field that counts writes }, got ${shown(readBack)}`,
    );
  if (readBack !== undefined && !sideEffecting)
    fail('readBack', 'left out of a tool that is not sideEffecting: only a write is read back');
  if (readBack !== undefined && readBack.tool === name)
    fail('readBack', `another tool than '${name}' itself: a read-only tool that shows its writes`);
  if (typeof definition.run !== 'function')
    fail('run', `a function (input, world) => result, got ${shown(definition.run)}`);
  const zod = isZodSchema(input_schema) ? input_schema : undefined;
  const schema = zod === undefined ? jsonSchemaOf(input_schema, fail) : zodJsonSchema(zod, fail);
  const run = definition.run as (input: Record<string, unknown>, world: World) => Json | Promise<Json>;
  const checked =
    zod === undefined
      ? (input: Record<string, unknown>, world: World) => run(input, world)
      : (input: Record<string, unknown>, world: World) => run(parsedInput(zod, input), world);
  return Object.freeze({
    kind: 'spiralbench.tool',
    definition: Object.freeze({ name, description, input_schema: schema }),
    sideEffecting,
    concurrencySafe,
    latencyMs,
    ...(readBack === undefined
      ? {}
      : {
          readBack: Object.freeze({
            tool: readBack.tool,
            input: Object.freeze({ ...readBack.input }),
            count: readBack.count,
          }),
        }),
    // The host awaits a returned promise before it judges the result (ToolSpec.run).
    run: checked,
  });
}

function isReadBack(value: unknown): value is ReadBack {
  if (typeof value !== 'object' || value === null) return false;
  const { tool, input, count } = value as Partial<Record<keyof ReadBack, unknown>>;
  return (
    typeof tool === 'string' &&
    TOOL_NAME.test(tool) &&
    typeof count === 'string' &&
    count !== '' &&
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    Object.values(input).every((from) => typeof from === 'string')
  );
}

/** Whether `value` is a tool made by `defineTool` (of any copy of spiralbench). */
export function isDefinedTool(value: unknown): value is DefinedTool {
  if (typeof value !== 'object' || value === null) return false;
  const tool = value as Partial<Record<keyof DefinedTool, unknown>>;
  const definition = tool.definition as { name?: unknown } | undefined;
  return (
    tool.kind === 'spiralbench.tool' &&
    typeof definition === 'object' &&
    definition !== null &&
    typeof definition.name === 'string' &&
    typeof tool.run === 'function' &&
    typeof tool.sideEffecting === 'boolean' &&
    typeof tool.concurrencySafe === 'boolean' &&
    typeof tool.latencyMs === 'number'
  );
}

function isZodSchema(value: unknown): value is ZodInputSchema {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_zod' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

function jsonSchemaOf(value: unknown, fail: (field: string, expected: string) => never): JsonSchemaObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('input_schema', `a JSON Schema object or a zod object schema, got ${shown(value)}`);
  if ((value as { type?: unknown }).type !== 'object')
    return fail(
      'input_schema',
      `a schema of type 'object' (tool input is an object), got type ${shown((value as { type?: unknown }).type)}`,
    );
  try {
    // A copy, so the caller's object stays theirs; frozen, since every run shares it.
    return deepFreeze(structuredClone(value) as Json) as unknown as JsonSchemaObject;
  } catch {
    return fail('input_schema', 'plain JSON (no functions, no class instances)');
  }
}

function zodJsonSchema(schema: ZodInputSchema, fail: (field: string, expected: string) => never): JsonSchemaObject {
  let converted: Record<string, unknown>;
  try {
    converted = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  } catch (error) {
    return fail('input_schema', `a zod schema JSON Schema can express (${(error as Error).message})`);
  }
  if (converted['type'] !== 'object')
    return fail('input_schema', `a zod object schema, got type ${shown(converted['type'])}`);
  // The dialect marker means nothing to the model and is not part of a Messages API tool.
  const { $schema: _, ...rest } = converted;
  return deepFreeze(rest as Json) as unknown as JsonSchemaObject;
}

/** The input as the schema reads it, or the invalid_input error the model sees, as a catalogue tool's. */
function parsedInput(schema: ZodInputSchema, input: Record<string, unknown>): Record<string, unknown> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `'${issue.path.map(String).join('.')}': ${issue.message}`,
  );
  throw invalidInput(problems.join('; '));
}

function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return 'a function';
  if (value === undefined) return 'nothing';
  return JSON.stringify(value) ?? String(value);
}
