import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Guard } from './guard.js';

/** Distinct guard tool lists remembered per host list; an arm set offers a handful (the ablation about eight). */
const MAX_LISTS_PER_HOST = 16;

/**
 * Per frozen host list, the offered lists already made, by the guards' tools they end
 * with. Safe to share across runs: a list is a pure function of the identities of the
 * tool objects it holds, and it is frozen, so no run can change what another is offered.
 * Bounded: an entry lives as long as its host list (a scenario's, see
 * scenario-tool-host.ts), and holds at most MAX_LISTS_PER_HOST lists.
 */
const offeredByHostList = new WeakMap<
  readonly Tool[],
  { readonly extras: readonly Tool[]; readonly offered: readonly Tool[] }[]
>();

/**
 * The tools a run offers the model: the host's, then each guard's own, in guard order.
 * Every run of a scenario and arm offers the same tool objects; the list is shared rather
 * than built per run, so the readings other modules remember per list (its token count)
 * are made once, not once a run.
 */
export function offeredTools(hostTools: readonly Tool[], guards: readonly Guard[]): readonly Tool[] {
  const extras: Tool[] = [];
  for (const guard of guards) if (guard.tools !== undefined) for (const tool of guard.tools) extras.push(tool);
  // A host list that could still change is copied, as every run's was before.
  if (!Object.isFrozen(hostTools)) return [...hostTools, ...extras];
  let known = offeredByHostList.get(hostTools);
  if (known === undefined) offeredByHostList.set(hostTools, (known = []));
  for (const entry of known) if (sameTools(entry.extras, extras)) return entry.offered;
  const offered = Object.freeze([...hostTools, ...extras]);
  if (known.length < MAX_LISTS_PER_HOST) known.push({ extras, offered });
  return offered;
}

function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
