import type { Rng } from '../../random/streams.js';
import { atPath, isReference, parseReference, referencesIn, type StepReference } from '../../scenarios/references.js';
import type { ScenarioFile } from '../../scenarios/schema.js';
import type { Json } from '../../tools/world.js';
import type { TranscriptState } from './transcript-reader.js';

type Plan = ScenarioFile['plan'];

/** What the model knows when it fills in a step's arguments: the plan, its reading of the transcript, its stream. */
export interface ArgumentContext {
  readonly plan: Plan;
  readonly state: TranscriptState;
  readonly rng: Rng;
}

/** Salvage the complete `"key": value` pairs of a cut-off JSON object, as a hurried reader would. */
function salvage(text: string): Record<string, Json> {
  const record: Record<string, Json> = {};
  for (const match of text.matchAll(
    /"([A-Za-z_][\w]*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)\s*[,}]/g,
  )) {
    const [, key, raw] = match;
    if (key !== undefined && raw !== undefined) record[key] = JSON.parse(raw) as Json;
  }
  return record;
}

/** Plan references as parsed, by their text: the plan's few strings are read on every call. */
const parsedReferences = new Map<string, StepReference | null>();
function readReference(text: string): StepReference | null {
  let reference = parsedReferences.get(text);
  if (reference === undefined) {
    reference = parseReference(text);
    parsedReferences.set(text, reference);
  }
  return reference;
}

const INVENTED_NAMES = ['Jordan Smith', 'Alex Johnson', 'Sam Lee', 'Unknown User'];

/** Data a model makes up when it carries on after an unparseable result. */
function invent(text: string, rng: Rng): Json {
  const record = salvage(text);
  record['name'] ??= rng.pick(INVENTED_NAMES);
  record['email'] ??= `${String(record['name']).toLowerCase().replace(/\s+/g, '.')}@example.com`;
  return record;
}

/** A field name as words, for matching: lower case, without separators (`email_address` → `emailaddress`). */
const wordsOf = (name: string): string => name.toLowerCase().replace(/[_\-\s]/g, '');

/**
 * The part of a result a plan's path names, read as a model reads a record: where a field
 * is missing, the one field whose name holds the same words is taken for it (`email` in a
 * record that says `email_address` after a deploy renamed it).
 */
function atPathAsRead(value: Json, path: readonly string[]): Json | undefined {
  const exact = atPath(value, path);
  if (exact !== undefined || path.length === 0) return exact;
  let current: Json | undefined = value;
  for (const part of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current))
      return atPath(current ?? null, [part]);
    if (Object.hasOwn(current, part)) {
      current = current[part];
      continue;
    }
    const wanted = wordsOf(part);
    const like = Object.keys(current).filter((key) => {
      const words = wordsOf(key);
      return words !== wanted && (words.startsWith(wanted) || words.endsWith(wanted));
    });
    if (like.length !== 1) return undefined;
    current = current[like[0]!];
  }
  return current;
}

/** What a model carrying on regardless puts where it has nothing at all. */
const INVENTED_VALUE = 'unknown';

/**
 * The plan's arguments with every `$step` reference, at any depth, replaced by what the
 * model has of that step: its latest good result, or what it makes of an unreadable one.
 * References to one step within one call share one reading.
 */
export function resolveArgs(args: Record<string, unknown>, input: ArgumentContext): Record<string, unknown> {
  return new ArgumentFilling(input).resolve(args) as Record<string, unknown>;
}

/** One filling-in of a call's arguments; it remembers what it made up, so a call invents each step's data once. */
class ArgumentFilling {
  readonly #context: ArgumentContext;
  /** Only steps without a good result get here; made on the first one (rare). */
  #invented: Map<number, Json> | null = null;

  constructor(context: ArgumentContext) {
    this.#context = context;
  }

  resolve(value: unknown): unknown {
    if (isReference(value)) return this.#dereference(value);
    if (Array.isArray(value)) return value.map((item) => this.resolve(item));
    if (typeof value !== 'object' || value === null) return value;
    const resolved: Record<string, unknown> = {};
    for (const name of Object.keys(value)) {
      const item = this.resolve((value as Record<string, unknown>)[name]);
      // An own property, as Object.fromEntries would make it: assigning `__proto__` would set the prototype instead.
      if (name === '__proto__')
        Object.defineProperty(resolved, name, { value: item, enumerable: true, writable: true, configurable: true });
      else resolved[name] = item;
    }
    return resolved;
  }

  #dereference(text: string): unknown {
    const { plan, state, rng } = this.#context;
    const reference = readReference(text);
    const index = plan.steps.findIndex((step) => step.id === reference?.step);
    const good = state.stepResults[index];
    if (good !== undefined) return atPathAsRead(good, reference?.path ?? []) ?? null;
    this.#invented ??= new Map();
    let made = this.#invented.get(index);
    if (made === undefined) {
      made = invent(state.stepMalformed[index] ?? '', rng);
      this.#invented.set(index, made);
    }
    return atPath(made, reference?.path ?? []) ?? INVENTED_VALUE;
  }
}

const referencedSteps = new WeakMap<Plan['steps'][number], readonly number[]>();

/** Indices of the earlier steps a step's arguments refer to, in order. */
export function stepsReferenced(step: number, plan: Plan): readonly number[] {
  const planStep = plan.steps[step]!;
  let found = referencedSteps.get(planStep);
  if (found === undefined) {
    const ids = referencesIn(planStep.args, 'args').map((reference) => parseReference(reference.text)?.step);
    found = [
      ...new Set(ids.map((id) => plan.steps.findIndex((other) => other.id === id)).filter((index) => index >= 0)),
    ];
    referencedSteps.set(planStep, found);
  }
  return found;
}

/**
 * An earlier step this one needs whose result the model has no reading of at all (it
 * was done, but the transcript no longer shows it: compaction dropped it), or -1.
 */
export function forgottenInput(step: number, input: Pick<ArgumentContext, 'plan' | 'state'>): number {
  const { stepResults, stepMalformed } = input.state;
  return (
    stepsReferenced(step, input.plan).find((s) => stepResults[s] === undefined && stepMalformed[s] === undefined) ?? -1
  );
}
