import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { RATE_FAULT_KINDS, type FaultProfile } from '../faults/fault-profile.js';
import { MALFORMED_ARGUMENT_KINDS } from '../faults/malformed-arguments.js';
import { MODEL_FAULT_KINDS, type ModelFaultProfile } from '../faults/model-faults.js';
import { UserInputError, type InputProblem } from '../user-input-error.js';
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
import { TOOL_CATALOGUE, type ToolSpec } from './tool-catalogue.js';

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

function readYaml(path: string): { text: string; data: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw UserInputError.single(path, '', 'file not found or not readable');
  }
  try {
    return { text, data: parseYaml(text) };
  } catch (error) {
    throw UserInputError.single(path, '', `valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
}

export function loadPersona(id: string, dir = SCENARIOS_DIR): { persona: Persona; text: string } {
  const path = join(dir, 'personas', `${id}.yaml`);
  const { text, data } = readYaml(path);
  const parsed = personaSchema.safeParse(data);
  if (!parsed.success) throw new UserInputError(zodProblems(path, parsed.error));
  return { persona: parsed.data, text };
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

/** The scenario's persona, or the problems that stop it from loading. */
function personaOf(path: string, raw: unknown, dir: string): { persona: Persona; text: string } | InputProblem[] {
  const id = asObject(raw)['persona'] ?? 'default';
  if (typeof id !== 'string') return []; // the schema check reports it
  const known = listPersonaIds(dir);
  if (!known.includes(id)) {
    return [
      {
        source: path,
        field: 'persona',
        expected: `a persona in ${join(dir, 'personas')} (${known.join(', ') || 'none there'}), got '${id}'`,
      },
    ];
  }
  try {
    return loadPersona(id, dir);
  } catch (error) {
    if (error instanceof UserInputError) return [...error.problems];
    throw error;
  }
}

/** Load and validate one scenario file; every problem is reported at once. */
export function loadScenarioFile(path: string, personasDir = SCENARIOS_DIR): Scenario {
  const { text, data } = readYaml(path);
  const parsed = scenarioSchema.safeParse(data);
  const persona = personaOf(path, data, personasDir);
  const problems = [
    ...(parsed.success ? [] : zodProblems(path, parsed.error)),
    ...referenceProblems(path, data),
    ...(parsed.success ? detourProblems(path, parsed.data.plan) : []),
    ...(Array.isArray(persona) ? persona : []),
  ];
  if (!parsed.success || Array.isArray(persona) || problems.length > 0) throw new UserInputError(problems);
  const file = parsed.data;
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
    persona: persona.persona,
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
    hash: createHash('sha256').update(text).update('\0').update(persona.text).digest('hex'),
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
  const known = listScenarioIds(dir);
  if (!known.includes(id)) {
    throw UserInputError.single('--scenario', '', `one of ${known.join(', ')}; got '${id}'`);
  }
  return loadScenarioFile(join(dir, `${id}.yaml`), dir);
}
