import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listPersonaIds, loadPersona } from '../../scenarios/loader.js';
import { personaSchema } from '../../scenarios/persona-schema.js';
import { PERSONA_PARAMETERS, PERSONA_PRIORS, parameterValue, withParameters } from './persona-priors.js';

/** The numeric fields of a schema, by path, with the bounds the schema puts on them; read from the schema itself. */
function schemaParameters(
  schema: z.ZodType,
  path = '',
): { readonly path: string; readonly min: number; readonly max: number; readonly int: boolean }[] {
  if (schema instanceof z.ZodDefault) return schemaParameters(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape).flatMap(([key, field]) =>
      schemaParameters(field as z.ZodType, path === '' ? key : `${path}.${key}`),
    );
  if (schema instanceof z.ZodNumber)
    return [
      {
        path,
        min: schema.minValue ?? Number.NEGATIVE_INFINITY,
        max: schema.maxValue ?? Number.POSITIVE_INFINITY,
        int: schema.isInt,
      },
    ];
  return [];
}

const FROM_SCHEMA = schemaParameters(personaSchema);

describe('persona priors', () => {
  it('give every numeric parameter of the persona schema a prior, and nothing else one', () => {
    expect(FROM_SCHEMA.length).toBeGreaterThan(20);
    expect([...PERSONA_PARAMETERS]).toEqual(FROM_SCHEMA.map((parameter) => parameter.path));
  });

  it('keep each range inside what the schema allows, low below high, whole numbers where the schema wants them', () => {
    for (const { path, min, max, int } of FROM_SCHEMA) {
      const { range, scale } = PERSONA_PRIORS[path as keyof typeof PERSONA_PRIORS];
      const [low, high] = range;
      expect([path, low < high, low >= min, high <= max]).toEqual([path, true, true, true]);
      expect([path, scale === 'integer']).toEqual([path, int]);
      if (int) expect([path, Number.isInteger(low) && Number.isInteger(high)]).toEqual([path, true]);
    }
  });

  it('hold every bundled persona, characters included, inside their ranges', () => {
    for (const id of listPersonaIds()) {
      const { persona } = loadPersona(id);
      for (const parameter of PERSONA_PARAMETERS) {
        const value = parameterValue(persona, parameter);
        const [low, high] = PERSONA_PRIORS[parameter].range;
        expect([id, parameter, value >= low && value <= high]).toEqual([id, parameter, true]);
      }
    }
  });

  it('say why, and are frozen for the sampler that walks them', () => {
    for (const parameter of PERSONA_PARAMETERS) expect(PERSONA_PRIORS[parameter].why.length).toBeGreaterThan(20);
    expect(Object.isFrozen(PERSONA_PRIORS)).toBe(true);
    expect(Object.isFrozen(PERSONA_PRIORS['retry.same'])).toBe(true);
    expect(Object.isFrozen(PERSONA_PRIORS['retry.same'].range)).toBe(true);
  });

  it('set parameters on a copy of a persona, leaving the original as it was', () => {
    const { persona } = loadPersona('default');
    const changed = withParameters(persona, { 'help.after_failures': 5, 'retry.same': 0.1 });
    expect([parameterValue(changed, 'help.after_failures'), parameterValue(changed, 'retry.same')]).toEqual([5, 0.1]);
    expect(parameterValue(persona, 'help.after_failures')).toBe(3);
    expect(personaSchema.parse(changed)).toEqual(changed);
  });
});

describe('the priors table of docs/simulated-model.md', () => {
  it('shows each parameter with the range, scale and basis the module gives it', () => {
    const doc = readFileSync(new URL('../../../docs/simulated-model.md', import.meta.url), 'utf8');
    for (const parameter of PERSONA_PARAMETERS) {
      const { range, scale, basis } = PERSONA_PRIORS[parameter];
      expect(doc).toContain(`| \`${parameter}\` | [${range[0]}, ${range[1]}] | ${scale} | ${basis} |`);
    }
  });
});
