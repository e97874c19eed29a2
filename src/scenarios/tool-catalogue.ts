import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { invalidInput, notFound } from '../faults/tool-errors.js';
import type { Json, World } from './world.js';

/** A tool a scenario can offer, by name. Handlers are plain functions of (input, world). */
export interface ToolSpec {
  readonly definition: Tool;
  /** Writes to the world; never retried automatically. */
  readonly sideEffecting: boolean;
  /** May run alongside other calls of the same turn. */
  readonly concurrencySafe: boolean;
  /** Virtual time a successful call takes. */
  readonly latencyMs: number;
  /** Returns the tool's JSON result or throws a ToolError. */
  run(input: Record<string, unknown>, world: World): Json;
}

function requireString(input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidInput(`'${field}' must be a non-empty string`);
  }
  return value;
}

function collection(world: World, name: string): Record<string, Json> {
  return world.records[name] ?? {};
}

const getUser: ToolSpec = {
  definition: {
    name: 'get_user',
    description: 'Fetch one user record by id from the user service. Returns the record as JSON.',
    input_schema: {
      type: 'object',
      properties: {
        user_id: { type: 'string', description: 'The user id, e.g. "u_1042".' },
        fields: { type: 'string', description: 'Optional: "all" (default) or "basic".' },
      },
      required: ['user_id'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 300,
  run(input, world) {
    const id = requireString(input, 'user_id');
    const user = collection(world, 'users')[id];
    if (user === undefined) throw notFound(`no user with id '${id}'`);
    return user;
  },
};

const searchUsers: ToolSpec = {
  definition: {
    name: 'search_users',
    description: 'Search users by name, email or id fragment. Returns up to 5 matching ids and names.',
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Free-text query.' } },
      required: ['query'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 450,
  run(input, world) {
    const query = requireString(input, 'query').toLowerCase();
    const matches: Json[] = [];
    for (const [id, user] of Object.entries(collection(world, 'users'))) {
      if (`${id} ${JSON.stringify(user)}`.toLowerCase().includes(query)) {
        const name = typeof user === 'object' && user !== null && !Array.isArray(user) ? (user['name'] ?? null) : null;
        matches.push({ id, name });
      }
      if (matches.length === 5) break;
    }
    return { query, matches };
  },
};

/**
 * The transform the reference task asks for. Deterministic, so the expected world can
 * be written into the scenario file as data.
 */
export function transformUserRecord(record: Record<string, unknown>): Json {
  const id = requireString(record, 'id');
  const name = requireString(record, 'name');
  const email = requireString(record, 'email');
  const domain = email.includes('@') ? email.slice(email.indexOf('@') + 1).toLowerCase() : '';
  return {
    id,
    display_name: name.trim().replace(/\s+/g, ' '),
    email: email.trim().toLowerCase(),
    email_domain: domain,
    initials: name
      .split(/\s+/)
      .filter(Boolean)
      .map((part) => part[0]?.toUpperCase() ?? '')
      .join(''),
  };
}

const transformRecord: ToolSpec = {
  definition: {
    name: 'transform_record',
    description:
      'Transform a user record into the export format (display name, normalised email, domain, initials). Pass the full record as returned by get_user.',
    input_schema: {
      type: 'object',
      properties: {
        record: { type: 'object', description: 'The user record to transform.' },
        format: { type: 'string', description: 'Optional export format version; "v1" (default).' },
      },
      required: ['record'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 200,
  run(input) {
    const record = input['record'];
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw invalidInput("'record' must be an object");
    }
    return transformUserRecord(record as Record<string, unknown>);
  },
};

const writeResult: ToolSpec = {
  definition: {
    name: 'write_result',
    description: 'Write a value to the results outbox under a key. Each call appends one write.',
    input_schema: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The key to write under, e.g. the user id.' },
        value: { type: 'object', description: 'The value to write.' },
      },
      required: ['key', 'value'],
    },
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 350,
  run(input, world) {
    const key = requireString(input, 'key');
    const value = input['value'];
    if (typeof value !== 'object' || value === null) throw invalidInput("'value' must be an object");
    world.outbox.push({ key, value: structuredClone(value) as Json });
    return { ok: true, key, writes: world.outbox.length };
  },
};

const readResult: ToolSpec = {
  definition: {
    name: 'read_result',
    description: 'Read back what the outbox holds under a key, to verify a write.',
    input_schema: {
      type: 'object',
      properties: { key: { type: 'string', description: 'The key to read.' } },
      required: ['key'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 150,
  run(input, world) {
    const key = requireString(input, 'key');
    const entries = world.outbox.filter((entry) => entry.key === key);
    const last = entries.at(-1);
    return last === undefined ? { key, found: false } : { key, found: true, value: last.value, writes: entries.length };
  },
};

export const TOOL_CATALOGUE: ReadonlyMap<string, ToolSpec> = new Map(
  [getUser, searchUsers, transformRecord, writeResult, readResult].map((spec) => [spec.definition.name, spec]),
);
