import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  readScenario,
  readScenarioFile,
  SCENARIOS_DIR,
  type Scenario,
  type ScenarioTexts,
} from '../scenarios/loader.js';
import { prepareScenarioFile } from '../scenarios/tools-module.js';

/**
 * A loaded scenario, the file it came from, and the texts (its file's, its persona's, its
 * tools module's) it was built from: workers build it again from those texts, never from
 * the files, and refuse a tools module that no longer matches its text, so a file edited
 * during a sweep cannot change runs recorded under the first hash.
 */
export interface ScenarioSource {
  readonly scenario: Scenario;
  readonly path: string;
  readonly texts: ScenarioTexts;
}

/** A scenario file's personas: beside it when it has a personas/ folder, else the bundled ones. */
function personasDirFor(path: string): string {
  const dir = dirname(path);
  return existsSync(join(dir, 'personas')) ? dir : SCENARIOS_DIR;
}

/** Load a scenario file by path, with its personas found as `run` finds them. */
export function loadScenarioAt(path: string): Scenario {
  return readScenarioFile(path, personasDirFor(path)).scenario;
}

/** A scenario file by path with its tools module imported first: what `validate` checks. */
export async function loadScenarioFileAt(path: string): Promise<Scenario> {
  await prepareScenarioFile(resolve(path));
  return loadScenarioAt(path);
}

const isScenarioPath = (idOrPath: string): boolean =>
  idOrPath.endsWith('.yaml') || idOrPath.endsWith('.yml') || idOrPath.includes('/');

/**
 * A bundled scenario id or a path to a scenario file, with the tools module a file names
 * imported first (bundled scenarios use only the catalogue).
 */
export async function loadScenarioSource(idOrPath: string): Promise<ScenarioSource> {
  if (isScenarioPath(idOrPath)) await prepareScenarioFile(resolve(idOrPath));
  return resolveScenarioSource(idOrPath);
}

/** The scenarios a command names, in order, each with the reference it was named by. */
export async function loadScenarioSources(refs: readonly string[]): Promise<Array<ScenarioSource & { ref: string }>> {
  const sources: Array<ScenarioSource & { ref: string }> = [];
  // One after the other: the first bad file is the one reported, whatever imports fastest.
  for (const ref of refs) sources.push({ ...(await loadScenarioSource(ref)), ref });
  return sources;
}

/**
 * A bundled scenario id (`fetch-transform-write`) or a path to a scenario file (`./my.yaml`).
 * A file with a `tools_module` loads only once that module is imported (loadScenarioSource).
 */
export function resolveScenarioSource(idOrPath: string): ScenarioSource {
  if (isScenarioPath(idOrPath)) {
    const path = resolve(idOrPath);
    return { ...readScenarioFile(path, personasDirFor(path)), path };
  }
  return { ...readScenario(idOrPath), path: join(SCENARIOS_DIR, `${idOrPath}.yaml`) };
}
