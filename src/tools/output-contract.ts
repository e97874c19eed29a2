import type { Json } from './world.js';

/**
 * What a tool declares its answers look like: a JSON Schema, of which the contract reads
 * `type`, `required`, `properties` and `items` (enough to tell a renamed, retyped or
 * missing field). Other keywords are ignored.
 *
 * @example
 * const schema: OutputSchema = { type: 'object', required: ['id', 'email'], properties: { id: { type: 'string' }, email: { type: 'string' } } };
 */
export interface OutputSchema {
  readonly type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, OutputSchema>>;
  readonly items?: OutputSchema;
}

function typeOf(value: Json): NonNullable<OutputSchema['type']> {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'object' | 'string' | 'boolean';
}

function fits(type: NonNullable<OutputSchema['type']>, value: Json): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** The first way `value` breaks `schema`, in words (`email is missing`, `on_hand is a string, not a number`), or null. */
export function contractProblem(schema: OutputSchema, value: Json, at = ''): string | null {
  const where = at === '' ? 'the answer' : at;
  if (schema.type !== undefined && !fits(schema.type, value))
    return `${where} is ${withArticle(typeOf(value))}, not ${withArticle(schema.type)}`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const field of schema.required ?? [])
      if (!Object.hasOwn(value, field)) return `${at === '' ? '' : `${at}.`}${field} is missing`;
    for (const [field, inner] of Object.entries(schema.properties ?? {})) {
      if (!Object.hasOwn(value, field)) continue;
      const problem = contractProblem(inner, value[field]!, at === '' ? field : `${at}.${field}`);
      if (problem !== null) return problem;
    }
  }
  if (Array.isArray(value) && schema.items !== undefined)
    for (let i = 0; i < value.length; i++) {
      const problem = contractProblem(schema.items, value[i]!, `${where === 'the answer' ? '' : at}[${i}]`);
      if (problem !== null) return problem;
    }
  return null;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** An identifier-like value: no spaces, letters and digits (`o_1042`, `C-88`, `u2001`). */
const IDENTIFIER = /^(?=[^\s]*\d)[A-Za-z0-9][\w.-]{1,40}$/;

/** The letters an identifier starts with, which say what kind of thing it names (`o` in `o_5521`). */
const kindOf = (id: string): string => /^[A-Za-z]*/.exec(id)![0].toLowerCase();

/**
 * Whether a record answers for another entity than the call named: an identifier argument
 * (`order_id: "o_1"`) and the record's own field of that name disagree, or, where the
 * record has no such field, its `id` names another thing of the same kind (`o_2`; a new
 * ticket `t_9` created for user `u_1` is not another user). Returns the two identifiers, or null.
 *
 * @example
 * answersForAnother({ order_id: 'o_1' }, { id: 'o_2', total: 5 }) // { asked: 'o_1', got: 'o_2' }
 */
export function answersForAnother(
  input: Readonly<Record<string, unknown>>,
  value: Json,
): { readonly asked: string; readonly got: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  for (const key in input) {
    const asked = input[key];
    if (typeof asked !== 'string' || !IDENTIFIER.test(asked)) continue;
    if (Object.hasOwn(value, key)) {
      const own = value[key];
      if (typeof own === 'string' && IDENTIFIER.test(own) && own !== asked) return { asked, got: own };
      continue;
    }
    const id = key.endsWith('_id') ? value['id'] : undefined;
    if (typeof id === 'string' && IDENTIFIER.test(id) && id !== asked && kindOf(id) === kindOf(asked))
      return { asked, got: id };
  }
  return null;
}
