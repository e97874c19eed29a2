import { createHash } from 'node:crypto';
import { atPriorEdge, type PriorEdge } from '../model/simulated/persona-priors.js';
import type { PersonaEnsemble } from '../scenarios/persona-ensemble.js';

/**
 * The ensemble with every member's prior-only parameters at one edge of their ranges, all
 * moved together; the fitted parameters stay as fitted. Member i stays member i, so run
 * seed s meets the same member, and the same seeded streams, as in the ensemble itself.
 *
 * @example
 * runSweep({ ...options, ensemble: ensembleAtPriorEdge(ensemble, 'low') });
 */
export function ensembleAtPriorEdge(ensemble: PersonaEnsemble, edge: PriorEdge): PersonaEnsemble {
  const members = ensemble.members.map((member) => Object.freeze(atPriorEdge(member, edge)));
  return Object.freeze({
    name: `${ensemble.name} (priors at ${edge} edge)`,
    // Not a file's bytes: the members' own, so two edges never share a hash.
    hash: createHash('sha256').update(JSON.stringify(members)).digest('hex'),
    members: Object.freeze(members),
  });
}
