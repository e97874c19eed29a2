import { describe, expect, it } from 'vitest';
import { ARM_PRESETS } from '../src/arms/arms.js';
import { runOne } from '../src/arms/run-one.js';
import {
  PERSONA_PARAMETERS,
  PERSONA_PRIORS,
  type PersonaParameter,
  parameterValue,
  withParameters,
} from '../src/model/simulated/persona-priors.js';
import { loadScenario } from '../src/scenarios/loader.js';

/**
 * A prior's `basis` is a claim about calibration: a `fitted` parameter moves what the
 * no-safeguard baseline of the reference scenario shows (tool calls, verdict, input tokens
 * per run), a `prior` one never does, so calibrating on `none` cannot set it. Each claim is
 * checked by moving the parameter across its range and running `none` on the same seeds.
 */
const reference = loadScenario('fetch-transform-write');
const none = ARM_PRESETS.get('none')!;
const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

async function baseline(scenario: typeof reference): Promise<string[]> {
  const rows: string[] = [];
  for (const seed of SEEDS) {
    const { record } = await runOne({ sweepSeed: 0, scenario, arm: none, seed });
    rows.push(`${record.tool_calls} ${record.verdict} ${record.input_tokens}`);
  }
  return rows;
}

/** A value far from the default persona's, inside the range: near the other end of it. */
function moved(parameter: PersonaParameter): number {
  const [low, high] = PERSONA_PRIORS[parameter].range;
  const value = parameterValue(reference.persona, parameter);
  const target = value > (low + high) / 2 ? low + (high - low) * 0.1 : low + (high - low) * 0.9;
  return PERSONA_PRIORS[parameter].scale === 'integer' ? Math.round(target) : target;
}

describe('persona priors: what the no-safeguard baseline can set', () => {
  it('a fitted parameter moves the baseline; a prior leaves every run of it as it was', async () => {
    const before = await baseline(reference);
    const moves: Record<string, 'moves' | 'unchanged'> = {};
    const labels: Record<string, 'moves' | 'unchanged'> = {};
    for (const parameter of PERSONA_PARAMETERS) {
      const persona = withParameters(reference.persona, { [parameter]: moved(parameter) });
      const after = await baseline({ ...reference, persona });
      moves[parameter] = after.join('\n') === before.join('\n') ? 'unchanged' : 'moves';
      labels[parameter] = PERSONA_PRIORS[parameter].basis === 'fitted' ? 'moves' : 'unchanged';
    }
    expect(moves).toEqual(labels);
  });
});
