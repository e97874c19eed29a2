import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { fuzzRuns } from '../../test/fuzz-runs.js';
import { UserInputError } from '../user-input-error.js';
import { parseArmsFile } from './arms-file.js';
import { type Arm, reservedArmName } from './arms.js';

const SOURCE = 'arms.yaml';

/** What every input must end in: the arms, or one clear UserInputError; anything else is thrown on. */
async function outcome(text: string): Promise<Map<string, Arm> | UserInputError> {
  try {
    return await parseArmsFile(text, SOURCE);
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    expect(error.message).not.toBe('');
    for (const problem of error.problems) {
      expect(problem.source).toBe(SOURCE);
      expect(problem.expected).not.toBe('');
    }
    return error;
  }
}

const count = fc.nat({ max: 50 });
const atLeast = (min: number) => fc.integer({ min, max: 100_000 });
const taskClass = (min: number) => fc.oneof(atLeast(min), fc.constant('task-class'));
const backoff = fc.array(fc.nat({ max: 60_000 }), { minLength: 1, maxLength: 4 });
/** One guard's entry in an arms file, as data. */
type GuardData = { readonly guard: string } & Readonly<Record<string, unknown>>;

const guard = (name: string, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<GuardData> =>
  fc.record({ guard: fc.constant(name), ...fields }, { requiredKeys: ['guard'] }) as fc.Arbitrary<GuardData>;

/** Every guard with valid settings, each setting present or left to its default. */
const GUARDS: fc.Arbitrary<GuardData>[] = [
  guard('stuck', {}),
  guard('budget', { maxToolCalls: taskClass(1) }),
  guard('repeat', { window: atLeast(1) }),
  guard('classify', { maxRetries: count, backoffMs: backoff }),
  guard('recover', {
    maxRetries: count,
    backoffMs: backoff,
    jitter: fc.double({ min: 0, max: 1, noNaN: true }),
    retryAfterCapMs: fc.nat(),
    fallbackModel: fc.oneof(fc.constant(null), fc.string({ minLength: 1 })),
  }),
  guard('output', { raisedMaxTokens: atLeast(1), maxResumes: count }),
  guard('iterations', { initial: taskClass(1), extension: count, cap: taskClass(1) }),
  guard('time', { softMs: taskClass(0), hardMs: taskClass(0) }),
  guard('concurrency', {}),
  guard('loops', { window: atLeast(2), identical: atLeast(2), pattern: atLeast(2) }),
  guard('fixup', {}),
  guard('repair', { repairTruncated: fc.boolean() }),
  guard('compact', {
    threshold: fc.double({ min: 0.01, max: 1, noNaN: true }),
    keepLast: atLeast(1),
    deepKeepLast: atLeast(1),
    pin: fc.boolean(),
    summaryModel: fc.string({ minLength: 1 }),
    summaryMaxTokens: atLeast(1),
    ladderWindow: count,
    maxRecoveries: count,
    reactive: fc.boolean(),
    counter: fc.constantFrom('estimate', 'cl100k'),
  }),
  guard('journal', { digestChars: count }),
];

const armName = fc.stringMatching(/^[a-z0-9][a-z0-9:_-]{0,11}$/).filter((name) => reservedArmName(name) === undefined);

/** A valid arms file as data: distinct names, each arm's guards distinct kinds. */
const validArms = fc
  .uniqueArray(armName, { minLength: 1, maxLength: 4 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc
          .shuffledSubarray(GUARDS)
          .chain((chosen): fc.Arbitrary<GuardData[]> => fc.tuple(...chosen))
          .map((guards) => ({ name, guards })),
      ),
    ),
  )
  .map((arms) => ({ arms }));

type Json = unknown;

/** Every path to a value inside `data`, the root included. */
function paths(data: Json, at: (string | number)[] = []): (string | number)[][] {
  const inner =
    Array.isArray(data) || (typeof data === 'object' && data !== null)
      ? Object.entries(data).flatMap(([key, value]) => paths(value, [...at, Array.isArray(data) ? Number(key) : key]))
      : [];
  return [at, ...inner];
}

interface Mutation {
  readonly at: number;
  readonly kind: 'replace' | 'delete' | 'add-key' | 'duplicate';
  readonly key: string;
  readonly value: Json;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'delete', 'add-key', 'duplicate'),
  key: fc.oneof(fc.constantFrom('guard', 'name', 'arms', 'guards', 'window', '__proto__', 'constructor'), fc.string()),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(-1, 0, 0.5, 1e308, -0, 'task-class', 'peer:vercel-ai', 'none', 'ablation', '', [], {}),
  ),
});

/** One small change to a valid arms file: a wrong value, a missing or unknown key, a repeated entry. */
function mutate(data: Json, { at, kind, key, value }: Mutation): Json {
  const copy = structuredClone(data) as Json;
  const all = paths(copy);
  const path = all[at % all.length]!;
  if (path.length === 0) return kind === 'replace' ? value : kind === 'duplicate' ? [copy, copy] : copy;
  const parent = path.slice(0, -1).reduce<Json>((node, step) => (node as Record<string, Json>)[step], copy) as
    | Record<string, Json>
    | Json[];
  const last = path.at(-1)!;
  const target = (parent as Record<string, Json>)[last];
  if (kind === 'replace') (parent as Record<string, Json>)[last] = value;
  else if (kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (kind === 'add-key' && typeof target === 'object' && target !== null && !Array.isArray(target))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else if (kind === 'duplicate' && Array.isArray(parent)) parent.push(structuredClone(target));
  return copy;
}

const asText = (data: Json, json: boolean): string => (json ? JSON.stringify(data) : stringify(data));

/** Pieces of YAML syntax, so random text reaches anchors, tags, merges and block scalars. */
const yamlToken = fc.constantFrom(
  'arms:',
  '- ',
  'name: ',
  'guards:',
  '{ guard: budget }',
  'guard: ',
  '&a ',
  '*a',
  '<<: *a',
  '!!binary ',
  '!!set ',
  '!!omap ',
  '!custom ',
  '? ',
  ': ',
  '|',
  '>-',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '#',
  '%YAML 1.1',
  '---',
  '...',
  '\n',
  '\n  ',
  '\n    ',
  '\t',
  '~',
  'null',
  '1e999',
  '0x1F',
  '.nan',
  'peer:vercel-ai',
  '\u001b[2J',
  '\u0000',
);

describe('parseArmsFile (property)', () => {
  const runs = { numRuns: fuzzRuns() };

  it('loads every valid arms file, as YAML or JSON', async () => {
    await fc.assert(
      fc.asyncProperty(validArms, fc.boolean(), async (data, json) => {
        const arms = await outcome(asText(data, json));
        expect(arms).toBeInstanceOf(Map);
        const loaded = arms as Map<string, Arm>;
        expect([...loaded.keys()]).toEqual(data.arms.map((arm) => arm.name));
        for (const arm of data.arms)
          expect(loaded.get(arm.name)?.guards.map((setting) => setting.guard)).toEqual(
            arm.guards.map((setting) => setting.guard),
          );
      }),
      runs,
    );
  });

  it('a valid arms file with small changes: the arms or a UserInputError, nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        validArms,
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (data, changes, json) => {
          await outcome(asText(changes.reduce<Json>(mutate, data), json));
        },
      ),
      runs,
    );
  });

  it('any JSON value, as JSON or as YAML', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.boolean(), async (data, json) => {
        await outcome(asText(data, json));
      }),
      runs,
    );
  });

  it('random text and random YAML syntax', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.array(yamlToken, { maxLength: 60 }).map((t) => t.join('')),
        ),
        async (text) => {
          await outcome(text);
        },
      ),
      runs,
    );
  });

  it('alias bombs and deep nesting end in an error, not a hang or a crash', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      laughs.push(
        `${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(9)
          .fill(`*${'abcdefghij'[i - 1]}`)
          .join(',')}]`,
      );
    for (const text of [
      laughs.join('\n'),
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      `arms:${'\n  - '.repeat(1)}${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}`,
    ])
      expect(await outcome(text)).toBeInstanceOf(UserInputError);
  });
});
