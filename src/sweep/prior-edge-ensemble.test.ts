import { describe, expect, it } from 'vitest';
import {
  PERSONA_PARAMETERS,
  PERSONA_PRIORS,
  PRIOR_ONLY_PARAMETERS,
  parameterValue,
} from '../model/simulated/persona-priors.js';
import { loadEnsemble } from '../scenarios/persona-ensemble.js';
import { ensembleAtPriorEdge } from './prior-edge-ensemble.js';

describe('ensembleAtPriorEdge', () => {
  const ensemble = loadEnsemble('default');

  it('moves the 16 prior-only parameters of every member to the edge and leaves the fitted ones as fitted', () => {
    expect(PRIOR_ONLY_PARAMETERS).toHaveLength(16);
    for (const edge of ['low', 'high'] as const) {
      const moved = ensembleAtPriorEdge(ensemble, edge);
      expect(moved.members).toHaveLength(ensemble.members.length);
      moved.members.forEach((member, i) => {
        for (const parameter of PERSONA_PARAMETERS) {
          const { basis, range } = PERSONA_PRIORS[parameter];
          const expected =
            basis === 'prior' ? range[edge === 'low' ? 0 : 1] : parameterValue(ensemble.members[i]!, parameter);
          expect(parameterValue(member, parameter), `${edge} ${i} ${parameter}`).toBe(expected);
        }
      });
    }
  });

  it('gives each edge its own hash and leaves the ensemble it was given untouched', () => {
    const before = JSON.stringify(ensemble.members);
    const low = ensembleAtPriorEdge(ensemble, 'low');
    const high = ensembleAtPriorEdge(ensemble, 'high');
    expect(low.hash).not.toBe(high.hash);
    expect(JSON.stringify(ensemble.members)).toBe(before);
  });
});
