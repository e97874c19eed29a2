import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadScenario, loadScenarioFile, SCENARIOS_DIR, type Scenario } from '../scenarios/loader.js';

/** A loaded scenario and the file it came from (workers load it again from there). */
export interface ScenarioSource {
  readonly scenario: Scenario;
  readonly path: string;
}

/** A scenario file's personas: beside it when it has a personas/ folder, else the bundled ones. */
function personasDirFor(path: string): string {
  const dir = dirname(path);
  return existsSync(join(dir, 'personas')) ? dir : SCENARIOS_DIR;
}

/** Load a scenario file by path, the same way in the main thread and in workers. */
export function loadScenarioAt(path: string): Scenario {
  return loadScenarioFile(path, personasDirFor(path));
}

/** A bundled scenario id (`fetch-transform-write`) or a path to a scenario file (`./my.yaml`). */
export function resolveScenarioSource(idOrPath: string): ScenarioSource {
  if (idOrPath.endsWith('.yaml') || idOrPath.endsWith('.yml') || idOrPath.includes('/')) {
    const path = resolve(idOrPath);
    return { scenario: loadScenarioAt(path), path };
  }
  return { scenario: loadScenario(idOrPath), path: join(SCENARIOS_DIR, `${idOrPath}.yaml`) };
}
