import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  readScenario,
  readScenarioFile,
  SCENARIOS_DIR,
  type Scenario,
  type ScenarioTexts,
} from '../scenarios/loader.js';

/**
 * A loaded scenario, the file it came from, and the texts (its file's and its persona's)
 * it was built from: workers build it again from those texts, never from the files, so
 * a file edited during a sweep cannot change runs recorded under the first hash.
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

/** A bundled scenario id (`fetch-transform-write`) or a path to a scenario file (`./my.yaml`). */
export function resolveScenarioSource(idOrPath: string): ScenarioSource {
  if (idOrPath.endsWith('.yaml') || idOrPath.endsWith('.yml') || idOrPath.includes('/')) {
    const path = resolve(idOrPath);
    return { ...readScenarioFile(path, personasDirFor(path)), path };
  }
  return { ...readScenario(idOrPath), path: join(SCENARIOS_DIR, `${idOrPath}.yaml`) };
}
