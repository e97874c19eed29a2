import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCENARIO_JSON_SCHEMA_PATH, scenarioJsonSchema } from './json-schema.js';

describe('scenarios/scenario.schema.json', () => {
  it('is up to date with the zod schema (regenerate: npx tsx src/scenarios/json-schema.ts)', () => {
    expect(readFileSync(SCENARIO_JSON_SCHEMA_PATH, 'utf8')).toBe(scenarioJsonSchema());
  });

  it('describes a scenario file as written: defaults optional, unknown keys refused, the 401 schedule per tool', () => {
    const schema = JSON.parse(scenarioJsonSchema()) as {
      required: string[];
      additionalProperties: boolean;
      properties: {
        impossible: { type: string; default: boolean };
        faults: { properties: { tools: { additionalProperties: { properties: Record<string, unknown> } } } };
      };
    };
    expect(schema.required.sort()).toEqual([
      'budget_class',
      'check',
      'id',
      'plan',
      'prompt',
      'title',
      'tools',
      'world',
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.impossible).toMatchObject({ type: 'boolean', default: false });
    expect(Object.keys(schema.properties.faults.properties.tools.additionalProperties.properties)).toContain(
      'unauthorized_after',
    );
  });
});
