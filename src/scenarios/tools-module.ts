import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isDefinedTool } from '../tools/define-tool.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { importUserModule, userModulePath } from '../user-module/import-user-module.js';
import { localImportGraph } from '../user-module/module-graph.js';
import { UserInputError } from '../user-input-error.js';
import { readInputFile } from './input-file.js';
import type { InputText, ScenarioTexts } from './loader.js';
import { TOOL_CATALOGUE } from './tool-catalogue.js';
import { parseYamlInput } from './yaml-input.js';

/**
 * A scenario's own tools: the module its `tools_module:` names (a path relative to the
 * scenario file), imported, with the text it was imported from. The text goes with the
 * scenario's texts, into its hash, so a sweep knows when the tools changed.
 */
export interface ToolsModule {
  /** Absolute. */
  readonly path: string;
  readonly text: string;
  /** The files it imports from the project (localImportGraph), each by absolute path with its text; hashed with it. */
  readonly imports: readonly InputText[];
  /** Its tools by the name the model calls them, in export order. */
  readonly tools: ReadonlyMap<string, ToolSpec>;
}

/** The field of a scenario file that names its tools module. */
export const TOOLS_MODULE_FIELD = 'tools_module';

/**
 * Importing is asynchronous and building a scenario is not: the modules this thread has
 * imported, by path, for the synchronous build to find. Filled only by `loadToolsModule`.
 */
const loaded = new Map<string, ToolsModule>();

/** The tools module at `path` (absolute) if this thread has imported it. */
export function importedToolsModule(path: string): ToolsModule | undefined {
  return loaded.get(path);
}

/** Where the `tools_module` of a scenario file's parsed YAML points, if it names one. */
export function toolsModulePathOf(scenarioPath: string, data: unknown): string | undefined {
  const named =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)[TOOLS_MODULE_FIELD]
      : undefined;
  return typeof named === 'string' && named !== '' ? userModulePath(named, dirname(scenarioPath)) : undefined;
}

/**
 * Imports the tools module a scenario file names, before the scenario is built from it.
 * A file that is not YAML, or names no module, needs nothing: the build reports its problems.
 */
export async function prepareScenarioFile(scenarioPath: string): Promise<void> {
  let data: unknown;
  try {
    data = parseYamlInput(readInputFile(scenarioPath));
  } catch {
    return;
  }
  const path = toolsModulePathOf(scenarioPath, data);
  if (path !== undefined) await loadToolsModule(path, scenarioPath);
}

/**
 * Imports the tools module of a scenario read elsewhere (a worker builds it from the texts
 * the main thread read): the module as it was then, or a clear refusal if it changed.
 */
export async function prepareScenarioTexts(texts: ScenarioTexts): Promise<void> {
  const module = texts.toolsModule;
  if (module !== undefined)
    await loadToolsModule(module.path, texts.path, { text: module.text, imports: module.imports ?? [] });
}

/**
 * The tools module at `path` (absolute), imported once per thread and checked: every
 * export made by `defineTool` is a tool, their names are distinct and none is a catalogue
 * tool's. `scenario` names the file that asked, for messages. `expectedText`, from a
 * worker, is the text the main thread read: a module edited since is refused, not run.
 */
export async function loadToolsModule(
  path: string,
  scenario: string,
  expected?: Pick<ToolsModule, 'text' | 'imports'>,
): Promise<ToolsModule> {
  const known = loaded.get(path);
  if (known !== undefined) return sameText(known, scenario, expected);
  const fail = (expected: string): never => {
    throw UserInputError.single(scenario, TOOLS_MODULE_FIELD, expected);
  };
  // Read before the import: what is hashed is at worst older than what runs, never newer.
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // importUserModule says the file is missing, in its own words.
  }
  const [, ...importedFiles] = localImportGraph(path);
  const imports = importedFiles.map((file) => ({ path: file, text: readFileSync(file, 'utf8') }));
  const exports = await importUserModule(path, scenario, TOOLS_MODULE_FIELD);
  const tools = new Map<string, ToolSpec>();
  for (const [exported, value] of Object.entries(exports)) {
    if (!isDefinedTool(value)) {
      if (typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'spiralbench.tool')
        fail(`tools made with defineTool; the export '${exported}' of '${path}' is marked as one but is not whole`);
      continue;
    }
    const name = value.definition.name;
    const earlier = tools.get(name);
    if (earlier === value) continue; // the same tool under two export names, e.g. also as default
    if (earlier !== undefined) fail(`tools with distinct names; '${path}' exports two tools named '${name}'`);
    if (TOOL_CATALOGUE.has(name))
      fail(`tools named apart from the catalogue's; '${path}' exports '${name}', a catalogue tool (rename yours)`);
    tools.set(name, value);
  }
  if (tools.size === 0) fail(`a module that exports tools made with defineTool; '${path}' exports none`);
  const module: ToolsModule = Object.freeze({ path, text, imports, tools });
  loaded.set(path, module);
  return sameText(module, scenario, expected);
}

/** The module, if it is (with each file it imports) as `expected` says the sweep read it; else a refusal naming the file that changed. */
function sameText(
  module: ToolsModule,
  scenario: string,
  expected: Pick<ToolsModule, 'text' | 'imports'> | undefined,
): ToolsModule {
  if (expected === undefined) return module;
  const now = new Map([[module.path, module.text], ...module.imports.map(({ path, text }) => [path, text] as const)]);
  const then = new Map([
    [module.path, expected.text],
    ...expected.imports.map(({ path, text }) => [path, text] as const),
  ]);
  const changed = [...new Set([...now.keys(), ...then.keys()])].find((path) => now.get(path) !== then.get(path));
  if (changed !== undefined)
    throw UserInputError.single(
      scenario,
      TOOLS_MODULE_FIELD,
      `'${changed}' as it was when the sweep read it; it has changed since (run again)`,
    );
  return module;
}
