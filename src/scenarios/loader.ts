import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { FaultProfile } from '../faults/fault-profile.js';
import { faultProfileOf } from '../faults/fault-profile-file.js';
import type { ModelFaultProfile } from '../faults/model-faults.js';
import { didYouMean } from '../did-you-mean.js';
import { UserInputError, type InputProblem } from '../user-input-error.js';
import { readInputFile } from './input-file.js';
import type { WorldCheck } from './judge.js';
import { BUDGET_CLASSES, scenarioSchema, type BudgetClass, type ScenarioFile } from './schema.js';
import { personaSchema, type Persona } from './persona-schema.js';
import { detourProblems, referenceProblems, zodProblems } from './scenario-problems.js';
import { TOOL_CATALOGUE } from './tool-catalogue.js';
import { importedToolsModule, TOOLS_MODULE_FIELD, type ToolsModule, toolsModulePathOf } from './tools-module.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { parseYamlInput } from './yaml-input.js';
import {
  type DatasetLookup,
  datasetSpecOf,
  datasetsBeside,
  datasetTasks,
  holdsPlaceholder,
  type ScenarioDataset,
} from './dataset-tasks.js';

/** The bundled scenarios folder (the same from src/ and dist/). */
export type { DatasetLookup, ScenarioDataset, ScenarioTask, TaskFields } from './dataset-tasks.js';

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
  /** Who started the session: its user, or an untrusted source (session trust reads it). */
  readonly trigger: ScenarioFile['trigger'];
  /** What the run is judged against (it carries `impossible` too, for the judge). */
  readonly check: Required<WorldCheck>;
  /** sha256 of the scenario file, its persona file, its tools module and its dataset, for provenance and a sweep's identity. */
  readonly hash: string;
  /**
   * A dataset scenario's tasks, one a row (docs/datasets.md); the scenario's own fields are
   * its first task's. Null for a scenario of one task, and for one task of a dataset.
   */
  readonly dataset: ScenarioDataset | null;
  /** The dataset task this scenario is (`scenarioForSeed`): the row's task id; null otherwise. */
  readonly task: string | null;
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
  /**
   * The module its `tools_module` names (absolute path) and the text it was imported from,
   * with the files it imports from the project when there are any.
   */
  readonly toolsModule?: InputText & { readonly imports?: readonly InputText[] };
  /** The file its `dataset` names (absolute path) and its text. */
  readonly dataset?: InputText;
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

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

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
  const dataset = texts.dataset;
  return scenarioFromText(
    texts,
    (wanted) =>
      wanted === id
        ? persona
        : [{ source: texts.path, field: 'persona', expected: `'${id}', the persona read with it` }],
    (file) =>
      dataset !== undefined && resolve(dirname(texts.path), file) === dataset.path
        ? dataset
        : [{ source: texts.path, field: 'dataset.file', expected: `'${file}', the dataset read with it` }],
  ).scenario;
}

/**
 * Validates a scenario file's text against the schema, the tool catalogue and its
 * persona (found by `personas`); every problem is reported at once.
 */
export function scenarioFromText(
  { path, text }: InputText,
  personas: PersonaLookup,
  datasets: DatasetLookup = datasetsBeside(path),
): { scenario: Scenario; texts: ScenarioTexts } {
  const data = parseYaml(path, text);
  const parsed = scenarioSchema.safeParse(data);
  const persona = personaOf(data, personas);
  const modulePath = toolsModulePathOf(path, data);
  const module = modulePath === undefined ? undefined : importedToolsModule(modulePath);
  const spec = datasetSpecOf(data);
  const fileProblems = [
    ...(parsed.success ? [] : zodProblems(path, parsed.error)),
    ...(modulePath !== undefined && module === undefined
      ? [{ source: path, field: TOOLS_MODULE_FIELD, expected: UNIMPORTED_TOOLS_MODULE }]
      : []),
    ...referenceProblems(path, data, module),
    ...(parsed.success ? detourProblems(path, parsed.data.plan) : []),
  ];
  const dataset = spec === undefined ? undefined : datasets(spec.file);
  const tasks =
    spec !== undefined && dataset !== undefined && !Array.isArray(dataset)
      ? datasetTasks(path, asObject(data), spec.task_id, dataset, module, fileProblems)
      : undefined;
  // A dataset's file is a template, checked in every row it makes: its own problems are those
  // every row has too (datasetTasks); a placeholder's field is checked filled, not as written.
  const problems = [
    ...(tasks?.fileProblems ??
      (spec === undefined ? fileProblems : fileProblems.filter((problem) => !holdsPlaceholder(data, problem.field)))),
    ...(Array.isArray(persona) ? persona : []),
    ...(Array.isArray(dataset) ? dataset : []),
    ...(tasks?.problems ?? []),
  ];
  if (Array.isArray(persona) || problems.length > 0) throw new UserInputError(problems);
  const file = tasks?.first ?? (parsed.success ? parsed.data : undefined);
  // Unreachable: a file that parses neither whole nor as any row has problems.
  if (file === undefined) throw new UserInputError(zodProblems(path, (parsed as { error: z.ZodError }).error));
  const datasetText = dataset === undefined || Array.isArray(dataset) ? undefined : dataset;
  const scenario = {
    ...buildScenario(file, persona.persona, text, persona.text.text, module, datasetText?.text),
    ...(tasks === undefined || spec === undefined ? {} : { dataset: { file: spec.file, tasks: tasks.tasks } }),
  };
  const toolsModule =
    module === undefined
      ? {}
      : {
          toolsModule: {
            path: module.path,
            text: module.text,
            ...(module.imports.length === 0 ? {} : { imports: module.imports }),
          },
        };
  return {
    scenario,
    texts: {
      path,
      text,
      persona: persona.text,
      ...toolsModule,
      ...(datasetText === undefined ? {} : { dataset: datasetText }),
    },
  };
}

/**
 * A module is imported asynchronously and a scenario is built synchronously: every caller
 * that reads a scenario file imports its module first (prepareScenarioFile,
 * prepareScenarioTexts); one that cannot says so rather than running without its tools.
 */
const UNIMPORTED_TOOLS_MODULE =
  'a scenario without a tools module here: this command reads scenarios without importing modules (run, arena, replay, calibrate and validate import them)';

function buildScenario(
  file: ScenarioFile,
  persona: Persona,
  text: string,
  personaText: string,
  module: ToolsModule | undefined,
  datasetText: string | undefined,
): Scenario {
  return {
    id: file.id,
    title: file.title,
    description: file.description,
    system: file.system,
    prompt: file.prompt,
    tools: file.tools.map((name) => (module?.tools.get(name) ?? TOOL_CATALOGUE.get(name)) as ToolSpec),
    budgetClass: file.budget_class,
    toolBudget: BUDGET_CLASSES[file.budget_class],
    contextWindow: file.context_window,
    persona,
    world: file.world,
    faults: faultProfileOf(file.faults),
    modelFaults: {
      rates: file.model_faults.rates,
      persistence: file.model_faults.persistence,
      models: file.model_faults.models,
      retryAfterMs: file.model_faults.retry_after_ms,
      timeoutMs: file.model_faults.timeout_ms,
      configChange:
        file.model_faults.config_change === null
          ? null
          : { atCall: file.model_faults.config_change.at_call, model: file.model_faults.config_change.model },
    },
    plan: file.plan,
    api: file.api,
    replyFaults: file.reply_faults,
    history: file.history,
    impossible: file.impossible,
    trigger: file.trigger,
    check: { outbox: file.check.outbox, forbidden: file.check.forbidden, impossible: file.impossible },
    hash: scenarioHash(text, personaText, module, datasetText),
    dataset: null,
    task: null,
  };
}

/**
 * sha256 of the texts a scenario is built from; a scenario without a tools module, or
 * whose module imports nothing of the project, hashes as it always has. An imported file
 * counts by its path from the module's folder, so two checkouts hash alike.
 */
function scenarioHash(
  text: string,
  personaText: string,
  module: ToolsModule | undefined,
  datasetText: string | undefined,
): string {
  const hash = createHash('sha256').update(text).update('\0').update(personaText);
  // After the module: a scenario without a dataset hashes as it always has.
  if (datasetText !== undefined) hash.update('\0dataset\0').update(datasetText);
  if (module !== undefined) {
    hash.update('\0').update(module.text);
    for (const imported of module.imports)
      hash
        .update('\0')
        .update(relative(dirname(module.path), imported.path))
        .update('\0')
        .update(imported.text);
  }
  return hash.digest('hex');
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
    throw UserInputError.single('--scenario', '', `one of ${known.join(', ')}; got '${id}'${didYouMean(id, known)}`);
  }
  return readScenarioFile(join(dir, `${id}.yaml`), dir);
}
