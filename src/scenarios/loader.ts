import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { RATE_FAULT_KINDS, type FaultProfile } from '../faults/fault-profile.js';
import { MALFORMED_ARGUMENT_KINDS } from '../faults/malformed-arguments.js';
import { MODEL_FAULT_KINDS, type ModelFaultProfile } from '../faults/model-faults.js';
import { UserInputError, type InputProblem } from '../user-input-error.js';
import { readInputFile } from './input-file.js';
import type { WorldCheck } from './judge.js';
import { stepServed } from './plan-matching.js';
import { parseReference, referencesIn } from './references.js';
import {
  BUDGET_CLASSES,
  personaSchema,
  scenarioSchema,
  type BudgetClass,
  type Persona,
  type ScenarioFile,
} from './schema.js';
import { TOOL_CATALOGUE } from './tool-catalogue.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { parseYamlInput } from './yaml-input.js';

/** The bundled scenarios folder (the same from src/ and dist/). */
export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** A validated scenario, resolved against the tool catalogue and its persona. */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly system: string;
  readonly prompt: string;
  readonly tools: readonly ToolSpec[];
  readonly budgetClass: BudgetClass;
  /** Tool calls allowed by the budget guard for this task class. */
  readonly toolBudget: number;
  /** The simulated model's context window in tokens; null: each model's own (model table). */
  readonly contextWindow: number | null;
  readonly persona: Persona;
  readonly world: ScenarioFile['world'];
  readonly faults: FaultProfile;
  /** Faults of the model API (none unless the file has `model_faults`). */
  readonly modelFaults: ModelFaultProfile;
  readonly plan: ScenarioFile['plan'];
  /** The API the agent speaks to the model. */
  readonly api: ScenarioFile['api'];
  /** Faults in what the model writes (malformed tool arguments). */
  readonly replyFaults: ScenarioFile['reply_faults'];
  /** Messages of an earlier session the run starts from, possibly malformed. */
  readonly history: ScenarioFile['history'];
  /** The task cannot be completed; asking for help is the right outcome. */
  readonly impossible: boolean;
  /** What the run is judged against (it carries `impossible` too, for the judge). */
  readonly check: Required<WorldCheck>;
  /** sha256 of the scenario file and its persona file, for provenance. */
  readonly hash: string;
}

function zodProblems(source: string, error: z.ZodError): InputProblem[] {
  return error.issues.map((issue) => ({
    source,
    field: issue.path.map(String).join('.'),
    expected: issue.message,
  }));
}

function parseYaml(path: string, text: string): unknown {
  try {
    return parseYamlInput(text);
  } catch (error) {
    throw UserInputError.single(path, '', `valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
}

/** A file as read: its path (for messages) and its text. */
export interface InputText {
  readonly path: string;
  readonly text: string;
}

/**
 * A scenario file and its persona's, as read: everything a Scenario is built from, so
 * the same text can be rebuilt elsewhere (a worker thread) without reading files again.
 */
export interface ScenarioTexts extends InputText {
  readonly persona: InputText & { readonly id: string };
}

/** A persona's text by id, or why there is none. */
export type PersonaLookup = (id: string) => InputText | InputProblem[];

function personaFromText({ path, text }: InputText): Persona {
  const parsed = personaSchema.safeParse(parseYaml(path, text));
  if (!parsed.success) throw new UserInputError(zodProblems(path, parsed.error));
  return parsed.data;
}

export function loadPersona(id: string, dir = SCENARIOS_DIR): { persona: Persona; text: string } {
  const path = join(dir, 'personas', `${id}.yaml`);
  const text = readInputFile(path);
  return { persona: personaFromText({ path, text }), text };
}

/** The ids of the personas in `<dir>/personas`, sorted. */
export function listPersonaIds(dir = SCENARIOS_DIR): string[] {
  try {
    return readdirSync(join(dir, 'personas'))
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => basename(name, '.yaml'))
      .sort();
  } catch {
    return [];
  }
}

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Cross-field checks the schema alone cannot express. They read the raw file
 * defensively, so they run even when the schema check failed and every problem of a
 * file is reported in one go.
 */
function referenceProblems(path: string, raw: unknown): InputProblem[] {
  const problems: InputProblem[] = [];
  const file = asObject(raw);
  const tools = asArray(file['tools']).filter((tool): tool is string => typeof tool === 'string');
  const offered = new Set(tools);
  tools.forEach((tool, i) => {
    if (!TOOL_CATALOGUE.has(tool)) {
      problems.push({
        source: path,
        field: `tools.${i}`,
        expected: `a catalogue tool (${[...TOOL_CATALOGUE.keys()].join(', ')}), got '${tool}'`,
      });
    }
  });
  const seen = new Set<string>();
  const checkCall = (field: string, call: Loose) => {
    const tool = call['tool'];
    if (typeof tool === 'string' && !offered.has(tool))
      problems.push({ source: path, field: `${field}.tool`, expected: `one of the scenario's tools, got '${tool}'` });
    for (const reference of referencesIn(call['args'], `${field}.args`)) {
      const parsed = parseReference(reference.text);
      if (parsed === null || !seen.has(parsed.step)) {
        problems.push({
          source: path,
          field: reference.field,
          expected: `a reference to an earlier step ($<step id> or $<step id>.<field>...), got '${reference.text}'`,
        });
      }
    }
  };
  const plan = asObject(file['plan']);
  asArray(plan['steps']).forEach((entry, i) => {
    const step = asObject(entry);
    checkCall(`plan.steps.${i}`, step);
    asArray(step['variants']).forEach((variant, j) =>
      checkCall(`plan.steps.${i}.variants.${j}`, { tool: step['tool'], args: variant }),
    );
    if (step['verify'] !== undefined) checkCall(`plan.steps.${i}.verify`, asObject(step['verify']));
    asArray(step['alternatives']).forEach((call, j) => checkCall(`plan.steps.${i}.alternatives.${j}`, asObject(call)));
    const id = step['id'];
    if (typeof id === 'string' && seen.has(id))
      problems.push({
        source: path,
        field: `plan.steps.${i}.id`,
        expected: `an id no earlier step has, got '${id}' again`,
      });
    if (typeof id === 'string') seen.add(id);
  });
  asArray(plan['detours']).forEach((call, i) => checkCall(`plan.detours.${i}`, asObject(call)));
  const faults = asObject(file['faults']);
  const checkRates = (field: string, rates: Loose, kinds: readonly string[] = RATE_FAULT_KINDS) => {
    // One draw picks at most one fault, so the rates of one tool cannot add up to more than
    // 1. A rate that is wrong on its own is the schema check's to report.
    const values = kinds.map((kind) => rates[kind]).filter((rate) => rate !== undefined);
    if (!values.every((rate): rate is number => typeof rate === 'number' && rate >= 0 && rate <= 1)) return;
    const total = values.reduce((sum, rate) => sum + rate, 0);
    if (total > 1 + 1e-9)
      problems.push({
        source: path,
        field,
        expected: `fault rates that add up to at most 1, got ${Number(total.toFixed(6))}`,
      });
  };
  checkRates('faults.rates', asObject(faults['rates']));
  for (const [tool, toolFaults] of Object.entries(asObject(faults['tools']))) {
    if (!offered.has(tool))
      problems.push({ source: path, field: `faults.tools.${tool}`, expected: "one of the scenario's tools" });
    checkRates(`faults.tools.${tool}`, asObject(toolFaults));
  }
  checkRates('model_faults.rates', asObject(asObject(file['model_faults'])['rates']), MODEL_FAULT_KINDS);
  const malformed = asObject(asObject(file['reply_faults'])['malformed_arguments']);
  checkRates('reply_faults.malformed_arguments', malformed, MALFORMED_ARGUMENT_KINDS);
  const writesMalformed = Object.values(malformed).some((rate) => typeof rate === 'number' && rate > 0);
  if (writesMalformed && file['api'] !== 'openai-chat') {
    // Over the Messages API the arguments arrive as an object: there is nothing to write wrong.
    problems.push({
      source: path,
      field: 'reply_faults.malformed_arguments',
      expected: `api: openai-chat (arguments are text only there), got api: ${String(file['api'] ?? 'anthropic')}`,
    });
  }
  const id = file['id'];
  if (typeof id === 'string' && basename(path, '.yaml') !== id) {
    problems.push({
      source: path,
      field: 'id',
      expected: `the file name without .yaml ('${basename(path, '.yaml')}'), got '${id}'`,
    });
  }
  return problems;
}

/**
 * A detour is a call off the plan. One the simulated model would read as serving a step
 * after the first (the same tool, and for a shared tool the same arguments) would, taken
 * early, make the model believe it had skipped ahead.
 */
function detourProblems(path: string, plan: ScenarioFile['plan']): InputProblem[] {
  return plan.detours.flatMap((detour, i) => {
    const step = stepServed(plan.steps, 1, detour.tool, detour.args);
    if (step === -1) return [];
    const id = plan.steps[step]?.id ?? '';
    return [
      {
        source: path,
        field: `plan.detours.${i}`,
        expected: `a call off the plan; this one would be read as step '${id}' (use another tool, or for a tool steps share, arguments of the first step only)`,
      },
    ];
  });
}

/** Personas read from `<dir>/personas`, by id. */
function personasIn(scenarioPath: string, dir: string): PersonaLookup {
  return (id) => {
    const known = listPersonaIds(dir);
    if (!known.includes(id)) {
      return [
        {
          source: scenarioPath,
          field: 'persona',
          expected: `a persona in ${join(dir, 'personas')} (${known.join(', ') || 'none there'}), got '${id}'`,
        },
      ];
    }
    const path = join(dir, 'personas', `${id}.yaml`);
    try {
      return { path, text: readInputFile(path) };
    } catch (error) {
      if (error instanceof UserInputError) return [...error.problems];
      throw error;
    }
  };
}

/** The scenario's persona and its text, or the problems that stop it from loading. */
function personaOf(
  raw: unknown,
  lookup: PersonaLookup,
): { persona: Persona; text: InputText & { id: string } } | InputProblem[] {
  const id = asObject(raw)['persona'] ?? 'default';
  if (typeof id !== 'string') return []; // the schema check reports it
  const text = lookup(id);
  if (Array.isArray(text)) return text;
  try {
    return { persona: personaFromText(text), text: { id, ...text } };
  } catch (error) {
    if (error instanceof UserInputError) return [...error.problems];
    throw error;
  }
}

/** Load and validate one scenario file; every problem is reported at once. */
export function loadScenarioFile(path: string, personasDir = SCENARIOS_DIR): Scenario {
  return readScenarioFile(path, personasDir).scenario;
}

/** Load and validate one scenario file, with the texts it was built from. */
export function readScenarioFile(
  path: string,
  personasDir = SCENARIOS_DIR,
): { scenario: Scenario; texts: ScenarioTexts } {
  return scenarioFromText({ path, text: readInputFile(path) }, personasIn(path, personasDir));
}

/** The scenario texts read earlier (by readScenarioFile) stand for, built again without reading a file. */
export function scenarioFromTexts(texts: ScenarioTexts): Scenario {
  const { id, ...persona } = texts.persona;
  return scenarioFromText(texts, (wanted) =>
    wanted === id ? persona : [{ source: texts.path, field: 'persona', expected: `'${id}', the persona read with it` }],
  ).scenario;
}

/**
 * Validates a scenario file's text against the schema, the tool catalogue and its
 * persona (found by `personas`); every problem is reported at once.
 */
export function scenarioFromText(
  { path, text }: InputText,
  personas: PersonaLookup,
): { scenario: Scenario; texts: ScenarioTexts } {
  const data = parseYaml(path, text);
  const parsed = scenarioSchema.safeParse(data);
  const persona = personaOf(data, personas);
  const problems = [
    ...(parsed.success ? [] : zodProblems(path, parsed.error)),
    ...referenceProblems(path, data),
    ...(parsed.success ? detourProblems(path, parsed.data.plan) : []),
    ...(Array.isArray(persona) ? persona : []),
  ];
  if (!parsed.success || Array.isArray(persona) || problems.length > 0) throw new UserInputError(problems);
  const file = parsed.data;
  const scenario = buildScenario(file, persona.persona, text, persona.text.text);
  return { scenario, texts: { path, text, persona: persona.text } };
}

function buildScenario(file: ScenarioFile, persona: Persona, text: string, personaText: string): Scenario {
  const rates = Object.fromEntries(
    Object.entries(file.faults.tools)
      .map(([tool, { unauthorized_after: _, ...toolRates }]) => [tool, toolRates] as const)
      // An entry that only schedules a 401 keeps the scenario-wide rates.
      .filter(([, toolRates]) => Object.keys(toolRates).length > 0),
  );
  const unauthorizedAfter = Object.fromEntries(
    Object.entries(file.faults.tools).flatMap(([tool, faults]) =>
      faults.unauthorized_after === undefined ? [] : [[tool, faults.unauthorized_after] as const],
    ),
  );
  return {
    id: file.id,
    title: file.title,
    description: file.description,
    system: file.system,
    prompt: file.prompt,
    tools: file.tools.map((name) => TOOL_CATALOGUE.get(name) as ToolSpec),
    budgetClass: file.budget_class,
    toolBudget: BUDGET_CLASSES[file.budget_class],
    contextWindow: file.context_window,
    persona,
    world: file.world,
    faults: {
      rates: file.faults.rates,
      tools: rates,
      unauthorizedAfter,
      retryAfterMs: file.faults.retry_after_ms,
      timeoutMs: file.faults.timeout_ms,
    },
    modelFaults: {
      rates: file.model_faults.rates,
      persistence: file.model_faults.persistence,
      models: file.model_faults.models,
      retryAfterMs: file.model_faults.retry_after_ms,
      timeoutMs: file.model_faults.timeout_ms,
    },
    plan: file.plan,
    api: file.api,
    replyFaults: file.reply_faults,
    history: file.history,
    impossible: file.impossible,
    check: { outbox: file.check.outbox, impossible: file.impossible },
    hash: createHash('sha256').update(text).update('\0').update(personaText).digest('hex'),
  };
}

/** The ids of the bundled scenarios, sorted. */
export function listScenarioIds(dir = SCENARIOS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => basename(name, '.yaml'))
    .sort();
}

/** Load a bundled scenario by id, with a clear error for an unknown id. */
export function loadScenario(id: string, dir = SCENARIOS_DIR): Scenario {
  return readScenario(id, dir).scenario;
}

/** Load a bundled scenario by id, with the texts it was built from. */
export function readScenario(id: string, dir = SCENARIOS_DIR): { scenario: Scenario; texts: ScenarioTexts } {
  const known = listScenarioIds(dir);
  if (!known.includes(id)) {
    throw UserInputError.single('--scenario', '', `one of ${known.join(', ')}; got '${id}'`);
  }
  return readScenarioFile(join(dir, `${id}.yaml`), dir);
}
