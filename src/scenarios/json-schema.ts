import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SCENARIOS_DIR } from './loader.js';
import { scenarioSchema } from './schema.js';

/** Where the published JSON Schema for scenario files lives, beside the scenarios. */
export const SCENARIO_JSON_SCHEMA_PATH = join(SCENARIOS_DIR, 'scenario.schema.json');

/**
 * The JSON Schema of a scenario file, generated from the zod schema so the two cannot
 * drift: what an editor accepts (`# yaml-language-server: $schema=./scenario.schema.json`)
 * is what the loader accepts, before the cross-field checks only the loader makes.
 * Fields with a default are optional, as they are in a file.
 */
export function scenarioJsonSchema(): string {
  return `${JSON.stringify(z.toJSONSchema(scenarioSchema, { io: 'input', target: 'draft-2020-12' }), null, 2)}\n`;
}

/** Rewrites scenarios/scenario.schema.json: `npx tsx src/scenarios/json-schema.ts` (or, built, `node dist/scenarios/json-schema.js`). */
export function writeScenarioJsonSchema(path = SCENARIO_JSON_SCHEMA_PATH): void {
  writeFileSync(path, scenarioJsonSchema());
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeScenarioJsonSchema();
  process.stdout.write(`wrote ${SCENARIO_JSON_SCHEMA_PATH}\n`);
}
