import { invalidInput, notFound } from '../../tools/tool-error.js';
import { frozenMemo, isDeepFrozen } from '../../memo/frozen-memo.js';
import { textMemo } from '../../memo/text-memo.js';
import { deepFreeze } from '../../memo/frozen-json.js';
import type { Json } from '../../tools/world.js';
import { collection, requireString } from './tool-input.js';
import type { ToolSpec } from '../../tools/tool-spec.js';

export const getUser: ToolSpec = {
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
  outputSchema: {
    type: 'object',
    required: ['id', 'name', 'email'],
    properties: { id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } },
  },
  run(input, world) {
    const id = requireString(input, 'user_id');
    const user = collection(world, 'users')[id];
    if (user === undefined) throw notFound(`no user with id '${id}'`);
    return user;
  },
};

/** What a query is matched against: the id and the whole record, lower-cased. */
function searchText(id: string, user: Json): string {
  return `${id} ${JSON.stringify(user)}`.toLowerCase();
}

export const searchUsers: ToolSpec = {
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
    const users = collection(world, 'users');
    return isDeepFrozen(users) ? searchesOf(users)(query) : search(users, query);
  },
};

function search(users: Record<string, Json>, query: string): Json {
  const matches: Json[] = [];
  for (const [id, user] of Object.entries(users)) {
    if (searchText(id, user).includes(query)) {
      const name = typeof user === 'object' && user !== null && !Array.isArray(user) ? (user['name'] ?? null) : null;
      matches.push({ id, name });
    }
    if (matches.length === 5) break;
  }
  return { query, matches };
}

/**
 * Searches of a scenario's starting users (shared by its runs, frozen at every depth, so
 * a search of them can never come out differently), remembered by query: the model sends
 * the same few queries run after run. The answers are frozen: shared, they must not change.
 */
const searchesByUsers = new WeakMap<object, (query: string) => Json>();
function searchesOf(users: Record<string, Json>): (query: string) => Json {
  let searches = searchesByUsers.get(users);
  if (searches === undefined) {
    searches = textMemo((query) => deepFreeze(search(users, query)), 100_000);
    searchesByUsers.set(users, searches);
  }
  return searches;
}

/**
 * The transform the reference task asks for. Deterministic, so the expected world can
 * be written into the scenario file as data.
 */
export function transformUserRecord(record: Record<string, unknown>): Json {
  const id = requireString(record, 'id');
  const name = requireString(record, 'name');
  // Normalised once, so the domain is cut from the same text the email field shows.
  const email = requireString(record, 'email').trim().toLowerCase();
  const domain = email.includes('@') ? email.slice(email.indexOf('@') + 1) : '';
  return {
    id,
    display_name: name.trim().replace(/\s+/g, ' '),
    email,
    email_domain: domain,
    initials: name
      .split(/\s+/)
      .filter(Boolean)
      .map((part) => part[0]?.toUpperCase() ?? '')
      .join(''),
  };
}

/**
 * The transform of a frozen record, made once: the model passes on the record it read
 * from get_user's body, and that parse is remembered and frozen, so the same record comes
 * back call after call. The result is frozen too: shared, it must not change.
 */
const transformFrozen = frozenMemo((record) => deepFreeze(transformUserRecord(record as Record<string, unknown>)));

export const transformRecord: ToolSpec = {
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
    return transformFrozen(record);
  },
};
