import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { fuzzRuns } from '../../test/fuzz-runs.js';
import { UserInputError } from '../user-input-error.js';
import { type PersonaLookup, SCENARIOS_DIR, scenarioFromText } from './loader.js';

const PATH = '/fuzz/fetch-transform-write.yaml';
const BUNDLED = readFileSync(join(SCENARIOS_DIR, 'fetch-transform-write.yaml'), 'utf8');
const BUNDLED_DATA = parse(BUNDLED) as Record<string, unknown>;
const PERSONA = readFileSync(join(SCENARIOS_DIR, 'personas', 'default.yaml'), 'utf8');

/** The bundled default persona under its own id; any other id is unknown. */
const personas: PersonaLookup = (id) =>
  id === 'default'
    ? { path: '/fuzz/personas/default.yaml', text: PERSONA }
    : [{ source: PATH, field: 'persona', expected: `a known persona, got '${id}'` }];

/**
 * The property every input must meet: a scenario, or a UserInputError whose every
 * problem names its source and says what was expected. Anything else thrown fails.
 */
async function loadsOrExplains(text: string, lookup: PersonaLookup = personas): Promise<void> {
  // A turn of the event loop between cases: a long synchronous run starves vitest's worker messages.
  await new Promise(setImmediate);
  try {
    const { scenario } = scenarioFromText({ path: PATH, text }, lookup);
    expect(scenario.hash).toMatch(/^[0-9a-f]{64}$/);
  } catch (error) {
    if (!(error instanceof UserInputError)) throw error;
    expect(error.problems.length).toBeGreaterThan(0);
    for (const problem of error.problems) {
      expect(problem.source.length).toBeGreaterThan(0);
      expect(problem.expected.length).toBeGreaterThan(0);
    }
  }
}

/** Text that looks like YAML: its indicators, quotes, anchors, tags and line breaks. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ': ',
        '- ',
        '? ',
        '\n',
        '\n  ',
        '[',
        ']',
        '{',
        '}',
        ', ',
        '"',
        "'",
        '#',
        '&a ',
        '*a',
        '!!str ',
        '!x ',
        '|\n',
        '>-\n',
        '---\n',
        '...\n',
        '%YAML 1.2\n',
        '<<: ',
        '\t',
        '\\',
      ),
      fc.string({ maxLength: 8 }),
      fc.constantFrom('id', 'world', 'plan', 'steps', 'tools', 'faults', 'rates', 'fetch-transform-write'),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

/** A path into a JSON-like value, and the value there replaced, removed or given a sibling. */
type Mutation =
  | { readonly kind: 'replace'; readonly at: number[]; readonly value: unknown }
  | { readonly kind: 'remove'; readonly at: number[] }
  | { readonly kind: 'add'; readonly at: number[]; readonly key: string; readonly value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.array(fc.nat(), { maxLength: 6 }),
    value: fc.jsonValue({ maxDepth: 3 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.array(fc.nat(), { maxLength: 6 }) }),
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.array(fc.nat(), { maxLength: 6 }),
    key: fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('impossible', 'persona', 'variants', 'verify', '__proto__'),
    ),
    value: fc.jsonValue({ maxDepth: 3 }),
  }),
);

/** Walks `at` (each step picks a child by index, modulo the count) and applies the mutation there. */
function mutate(value: unknown, change: Mutation): unknown {
  const copy = structuredClone(value) as unknown;
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  let node = copy;
  for (const step of change.at) {
    if (typeof node !== 'object' || node === null) break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node as Record<string, unknown> | unknown[];
    key = keys[step % keys.length]!;
    node = (parent as Record<string | number, unknown>)[key];
  }
  if (change.kind === 'add') {
    if (typeof node === 'object' && node !== null && !Array.isArray(node))
      Object.defineProperty(node, change.key, { value: change.value, enumerable: true, writable: true });
    else if (Array.isArray(node)) node.push(change.value);
    return copy;
  }
  if (parent === undefined || key === undefined) return change.kind === 'replace' ? change.value : null;
  if (change.kind === 'replace') (parent as Record<string | number, unknown>)[key] = change.value;
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key as string];
  return copy;
}

describe('scenarioFromText, on any input: a scenario or a UserInputError, nothing else', () => {
  // yaml's warnings (unknown tags, directives) go to process warnings; thousands of them are only noise here.
  beforeAll(() => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it('random JSON documents, as JSON and as YAML', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.boolean(), async (value, asJson) => {
        await loadsOrExplains(asJson ? JSON.stringify(value) : stringify(value));
      }),
      { numRuns: fuzzRuns() },
    );
  });

  it('random YAML-looking text, alone and spliced into the bundled scenario', async () => {
    await fc.assert(
      fc.asyncProperty(yamlish, fc.nat(), fc.nat(), async (noise, at, cut) => {
        await loadsOrExplains(noise);
        const start = at % BUNDLED.length;
        await loadsOrExplains(BUNDLED.slice(0, start) + noise + BUNDLED.slice(start + (cut % 40)));
      }),
      { numRuns: fuzzRuns() },
    );
  });

  it('near-valid scenarios: the bundled one with fields replaced, removed or added', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (changes) => {
        const data = changes.reduce<unknown>((value, change) => mutate(value, change), BUNDLED_DATA);
        await loadsOrExplains(stringify(data));
      }),
      { numRuns: fuzzRuns() },
    );
  });

  it('deep nesting, in flow and block style, anywhere in the world', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 5000 }), fc.boolean(), async (depth, flowStyle) => {
        const nested = flowStyle
          ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
          : `${Array.from({ length: Math.min(depth, 400) }, (_, i) => `\n${'  '.repeat(i + 3)}k:`).join('')} 1`;
        await loadsOrExplains(BUNDLED.replace('  records:\n', `  deep: ${nested}\n  records:\n`));
      }),
      { numRuns: fuzzRuns() },
    );
  });

  it('persona files of any content', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          yamlish,
          fc.jsonValue().map((value) => stringify(value)),
        ),
        async (text) => {
          await loadsOrExplains(BUNDLED, (id) => ({ path: `/fuzz/personas/${id}.yaml`, text }));
        },
      ),
      { numRuns: fuzzRuns() },
    );
  });

  it('huge maps, with and without a repeated key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40_000 }),
        fc.option(fc.nat()),
        fc.boolean(),
        async (size, repeat, asWorld) => {
          const keys = Array.from({ length: size }, (_, i) => `k_${i}`);
          if (repeat !== null) keys.push(keys[repeat % size]!);
          const map = keys.map((key, i) => `    ${key}: { id: ${key}, n: ${i} }`).join('\n');
          const text = asWorld
            ? BUNDLED.replace('  records:\n', `  records:\n    extra:\n${map.replace(/^ {4}/gm, '      ')}\n`)
            : `${BUNDLED}extra:\n${map}\n`;
          await loadsOrExplains(text);
        },
      ),
      // Each case reads up to 40,000 keys: a hundredth of the usual count.
      { numRuns: Math.max(5, Math.floor(fuzzRuns() / 100)) },
    );
  });
});
