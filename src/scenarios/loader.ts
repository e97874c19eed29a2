import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import type { FaultProfile } from '../faults/fault-profile.js';
import { UserInputError, type InputProblem } from '../user-input-error.js';
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
  readonly persona: Persona;
  readonly world: ScenarioFile['world'];
  readonly faults: FaultProfile;
  readonly plan: ScenarioFile['plan'];
  readonly check: ScenarioFile['check'];
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

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {});
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
      problems.push({ source: path, field: `tools.${i}`, expected: `a catalogue tool (${[...TOOL_CATALOGUE.keys()].join(', ')}), got '${tool}'` });
    }
  });
  const seen = new Set<string>();
  const checkCall = (field: string, call: Loose) => {
    const tool = call['tool'];
    if (typeof tool === 'string' && !offered.has(tool)) problems.push({ source: path, field: `${field}.tool`, expected: `one of the scenario's tools, got '${tool}'` });
    for (const [name, value] of Object.entries(asObject(call['args']))) {
      if (typeof value === 'string' && value.startsWith('$') && !seen.has(value.slice(1))) {
        problems.push({ source: path, field: `${field}.args.${name}`, expected: `a reference to an earlier step, got '${value}'` });
      }
    }
  };
  const plan = asObject(file['plan']);
  asArray(plan['steps']).forEach((entry, i) => {
    const step = asObject(entry);
    checkCall(`plan.steps.${i}`, step);
    asArray(step['variants']).forEach((variant, j) => checkCall(`plan.steps.${i}.variants.${j}`, { tool: step['tool'], args: variant }));
    if (step['verify'] !== undefined) checkCall(`plan.steps.${i}.verify`, asObject(step['verify']));
    if (typeof step['id'] === 'string') seen.add(step['id']);
  });
  asArray(plan['detours']).forEach((call, i) => checkCall(`plan.detours.${i}`, asObject(call)));
  for (const tool of Object.keys(asObject(asObject(file['faults'])['tools']))) {
    if (!offered.has(tool)) problems.push({ source: path, field: `faults.tools.${tool}`, expected: "one of the scenario's tools" });
  }
  const id = file['id'];
  if (typeof id === 'string' && basename(path, '.yaml') !== id) {
    problems.push({ source: path, field: 'id', expected: `the file name without .yaml ('${basename(path, '.yaml')}'), got '${id}'` });
  }
  return problems;
}

/** Load and validate one scenario file; every problem is reported at once. */
export function loadScenarioFile(path: string, personasDir = SCENARIOS_DIR): Scenario {
  const { text, data } = readYaml(path);
  const parsed = scenarioSchema.safeParse(data);
  const problems = [...(parsed.success ? [] : zodProblems(path, parsed.error)), ...referenceProblems(path, data)];
  if (!parsed.success || problems.length > 0) throw new UserInputError(problems);
  const file = parsed.data;
  const { persona, text: personaText } = loadPersona(file.persona, personasDir);
  return {
    id: file.id,
    title: file.title,
    description: file.description,
    system: file.system,
    prompt: file.prompt,
    tools: file.tools.map((name) => TOOL_CATALOGUE.get(name) as ToolSpec),
    budgetClass: file.budget_class,
    toolBudget: BUDGET_CLASSES[file.budget_class],
    persona,
    world: file.world,
    faults: {
      rates: file.faults.rates,
      tools: file.faults.tools,
      retryAfterMs: file.faults.retry_after_ms,
      timeoutMs: file.faults.timeout_ms,
    },
    plan: file.plan,
    check: file.check,
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
  const known = listScenarioIds(dir);
  if (!known.includes(id)) {
    throw UserInputError.single('--scenario', '', `one of ${known.join(', ')}; got '${id}'`);
  }
  return loadScenarioFile(join(dir, `${id}.yaml`), dir);
}
