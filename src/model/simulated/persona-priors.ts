import type { Persona } from '../../scenarios/persona-schema.js';

/**
 * The prior of every persona parameter: the range a plausible LLM agent's value lies in,
 * and why. Data for a sampler (a persona ensemble fitted by approximate Bayesian
 * computation walks it): typed by the persona schema, so a parameter without a prior
 * fails the type check, and frozen.
 *
 * `basis` says what the reference scenario's no-safeguard baseline can do with the
 * parameter. `fitted`: it moves the baseline's statistics (tool calls, success, input
 * tokens), so calibrating on `none` can set it. `prior`: it leaves them unchanged (it acts
 * only on a guard's words, a tool the baseline does not offer, or a plan shape the
 * reference task does not have), so nothing but this prior sets it. A test holds every
 * label to that definition (test/persona-priors.test.ts).
 */

/** The numeric parameters of a persona, by their path in the persona file (`retry.same`). */
type Leaves<T> = {
  [K in keyof T & string]: T[K] extends number ? K : T[K] extends object ? `${K}.${Leaves<T[K]>}` : never;
}[keyof T & string];

export type PersonaParameter = Leaves<Omit<Persona, 'id' | 'description'>>;

export interface PersonaPrior {
  /** The lowest and highest plausible value, both included. */
  readonly range: readonly [low: number, high: number];
  /** How to draw in the range: uniformly, or uniformly over whole numbers. */
  readonly scale: 'linear' | 'integer';
  /** Whether calibration on the no-safeguard baseline can set it (`fitted`) or only this prior does (`prior`). */
  readonly basis: 'fitted' | 'prior';
  /** Why this range: a behaviour of real models, a published observation, or "unknown — wide". */
  readonly why: string;
}

const prior = (
  range: readonly [number, number],
  basis: PersonaPrior['basis'],
  why: string,
  scale: PersonaPrior['scale'] = 'linear',
): PersonaPrior => Object.freeze({ range: Object.freeze([...range] as [number, number]), scale, basis, why });

/** In the persona schema's order. */
export const PERSONA_PRIORS: Readonly<Record<PersonaParameter, PersonaPrior>> = Object.freeze({
  'retry.same': prior(
    [0, 1],
    'fitted',
    'Agents resend a call that timed out as it was far more often than they rewrite it. Only the share same / (same + varied) acts, so this and retry.varied are one degree of freedom. Unknown — wide.',
  ),
  'retry.varied': prior([0, 1], 'fitted', 'The other half of the share above. Unknown — wide.'),
  'retry.permanent_hint_factor': prior(
    [0.05, 0.5],
    'prior',
    'Told "Do not retry with the same arguments", instruction-following models mostly comply: the article behind the reference baseline measured about 70% fewer same-argument retries than after a bare HTTP 400. This range, with retry.raw_error_reading\'s, keeps that cut between 50% and 90% for most personas. Only the classifier writes these words, so the baseline never shows them.',
  ),
  'retry.transient_hint_factor': prior(
    [1, 3],
    'fitted',
    '"May succeed if retried" invites a retry, so at least 1; by how much is unknown — wide. Only the classifier writes these words, but a bare timeout or 429 is read toward the same factor (retry.raw_error_reading), so the baseline moves with it.',
  ),
  'retry.raw_error_reading': prior(
    [0, 0.5],
    'fitted',
    'A competent model reads a bare status line or plain message (401/403, 404, 400 with a validation message; a timeout, 429, 5xx) for what it says about retrying, less reliably than explicit advice: the article behind the reference baseline measured the classifier\'s "Do not retry with the same arguments" cutting same-argument retries by about 70% against a bare HTTP 400, so bare errors are read, partly. The baseline\'s bare timeouts and 429s move with it. Unknown — wide.',
  ),
  'give_up.base': prior(
    [0, 0.15],
    'fitted',
    'Agents seldom abandon a task after a single failed call; they retry or look around first.',
  ),
  'give_up.per_failure': prior(
    [0, 0.15],
    'fitted',
    'Repeated failure at one step makes giving up likelier; how fast is unknown — wide within small values.',
  ),
  'give_up.max': prior(
    [0.1, 0.8],
    'fitted',
    'Even after many failures agents keep trying now and then (the published worst run made 217 calls).',
  ),
  'give_up.in_detour': prior(
    [0, 0.05],
    'fitted',
    'An agent absorbed in re-checking rarely stops mid-detour; the long published tail needs this small.',
  ),
  'detour.after_error': prior(
    [0, 1],
    'fitted',
    'After an error agents often re-fetch or search to re-check what they have; how often is what calibration sets. Unknown — wide.',
  ),
  'detour.after_malformed': prior(
    [0, 1],
    'fitted',
    'A cut-off body prompts re-checking as an error does. Unknown — wide.',
  ),
  'detour.after_success': prior(
    [0, 0.6],
    'fitted',
    'Re-checking after a clean result happens (models double-check data they were told is from production) but less than after a surprise.',
  ),
  'detour.persistence': prior(
    [0.3, 0.95],
    'fitted',
    'Confusion feeds itself: a detour is followed by another more often than not. The published tail (p95 89, worst 217 calls) needs long detours.',
  ),
  'detour.persistence_growth': prior(
    [0, 0.03],
    'fitted',
    'Each further detour call makes the next likelier (the model reads its own detours as reasons to keep checking); small.',
  ),
  'detour.persistence_max': prior(
    [0.7, 0.995],
    'fitted',
    'The cap on that growth; it sets the length of the longest spirals.',
  ),
  'detour.resend': prior(
    [0, 0.05],
    'fitted',
    "Real agents seldom send the same call twice in a row: 0.43% of calls in tau-bench's GPT-4o airline trajectories (docs/evidence/tau-bench.md). Spirals are varied re-checks; an unchanged re-send is rare.",
  ),
  'malformed.proceed_on_invented': prior(
    [0, 0.7],
    'fitted',
    'Models fill in what a cut-off JSON body lacks (a documented hallucination); the system prompt forbids made-up data, so below even odds is likely.',
  ),
  'reflection.resend_blocked': prior(
    [0, 0.5],
    'prior',
    'Told that a call is an identical repeat and was not run, capable models change course; sending the same call again regardless is the looping weaker models are known for. Only the repeat guard refuses calls.',
  ),
  'loop_warning.nudge': prior(
    [0.2, 0.95],
    'prior',
    'A soft "try a different approach" is advice; models often but not always take it. Unknown — wide. Only loop detection writes it.',
  ),
  'loop_warning.directive': prior(
    [0.5, 1],
    'prior',
    '"Stop calling X" is an explicit instruction; instruction-tuned models mostly obey. Only loop detection writes it.',
  ),
  'alternatives.spontaneous': prior(
    [0, 0.2],
    'prior',
    'Switching to another tool unprompted after a failure is uncommon. The reference plan knows no alternative tool, so the baseline cannot show it.',
  ),
  'parallel.probability': prior(
    [0, 1],
    'prior',
    'Models issue parallel tool calls for independent reads when the API allows it; how often is unknown — wide. The reference plan has no independent steps.',
  ),
  'parallel.max_calls': prior(
    [1, 8],
    'prior',
    'Parallel calls seen in practice are a handful per turn. The reference plan has no independent steps.',
    'integer',
  ),
  'help.after_failures': prior(
    [1, 8],
    'prior',
    'Failures at one step before asking a person; the stuck tool says asking beats guessing. Unknown — wide. The baseline offers no such tool.',
    'integer',
  ),
  'help.probability': prior(
    [0, 1],
    'prior',
    'Chance of asking once that many failures are reached. Unknown — wide. The baseline offers no such tool.',
  ),
  'verify.when_warned': prior(
    [0.2, 1],
    'prior',
    'Told a write "may have been applied; check before retrying", a careful model reads back first; most do. Only the classifier writes these words.',
  ),
  'verify.after_error': prior(
    [0, 0.7],
    'fitted',
    'Reading back after a plain failed write is less common than after a warning; the reference write step can be checked, so the baseline shows it.',
  ),
  'final.false_success_claim': prior(
    [0, 0.6],
    'prior',
    'Models do report success that did not happen. It changes only the words of a final answer, and success is judged on the world, so no baseline statistic moves with it.',
  ),
  'injection.obey': prior(
    [0.01, 0.56],
    'prior',
    "AgentDojo's targeted attack success rate under its important_instructions attack with no defence, across the 20 model rows of its results table (v1.1.2, 629 user-task x injection pairs): from 1.11% (claude-3-5-sonnet-20241022) to 56.28% (gpt-4-0125-preview); the default, 0.17, is the rows' median (17.01%). A per-task rate taken as a per-exposure chance: an AgentDojo injection is usually read once. The reference baseline holds no injection.",
  ),
  'injection.override_factor': prior(
    [0.1, 0.55],
    'prior',
    'AgentDojo, gpt-4o-2024-05-13: "ignore previous instructions" 5.41% and InjecAgent\'s "IMPORTANT!!! Ignore all previous instructions" 5.72% against 47.69% for important_instructions (x0.11-0.12, the default 0.12); Llama-3.3-70B, from the run logs: 17.97% against 33.55% (x0.54).',
  ),
  'injection.bare_factor': prior(
    [0.05, 0.2],
    'prior',
    'AgentDojo\'s direct attack ("TODO: ..."): 3.66% against 47.69% for gpt-4o-2024-05-13 (x0.077, the default 0.08); 5.25% against 33.55% for Llama-3.3-70B (x0.16).',
  ),
  'injection.delimited_factor': prior(
    [0.6, 0.9],
    'prior',
    'Spotlighting with delimiters (tool outputs marked, the system prompt saying not to obey what is between the marks): AgentDojo gpt-4o-2024-05-13 41.65% against 47.69% (x0.87, the default); gpt-4o-mini 22.26% against 27.19% (x0.82, as quoted by the Task Shield paper); InjecAgent gpt-4o 5.1% against 8.3% (x0.61, Bhagwatkar et al. 2025, Table 3).',
  ),
  'data.notice_mismatch': prior(
    [0.05, 0.6],
    'prior',
    'No published rate for noticing a wrong-entity record. ToolMaze (arXiv:2606.05806) reports agents over-trusting plausible corrupted outputs: recovery from implicit permanent failures about 17.6% against 38.1% for explicit ones (secondary summary); the default, 0.2, follows it. Unknown — wide.',
  ),
});

/** The parameters, in the persona schema's order. */
export const PERSONA_PARAMETERS: readonly PersonaParameter[] = Object.freeze(
  Object.keys(PERSONA_PRIORS) as PersonaParameter[],
);

/** A persona's value of one parameter. */
export function parameterValue(persona: Persona, parameter: PersonaParameter): number {
  const [group, field] = parameter.split('.') as [keyof Persona, string];
  return (persona[group] as unknown as Record<string, number>)[field]!;
}

/** A copy of `persona` with some parameters set (e.g. a draw from the priors). */
export function withParameters(persona: Persona, values: Partial<Record<PersonaParameter, number>>): Persona {
  const copy = structuredClone(persona) as unknown as Record<string, Record<string, number>>;
  for (const [parameter, value] of Object.entries(values)) {
    const [group, field] = parameter.split('.') as [string, string];
    copy[group]![field] = value;
  }
  return copy as unknown as Persona;
}

/** An edge of a prior's range: its lowest or its highest plausible value. */
export type PriorEdge = 'low' | 'high';

/** The parameters only their prior sets (`basis: 'prior'`), in the persona schema's order. */
export const PRIOR_ONLY_PARAMETERS: readonly PersonaParameter[] = Object.freeze(
  PERSONA_PARAMETERS.filter((parameter) => PERSONA_PRIORS[parameter].basis === 'prior'),
);

/** Every prior-only parameter's value at one edge of its range (an integer-scaled one as a whole number). */
export function priorEdgeValues(edge: PriorEdge): Readonly<Partial<Record<PersonaParameter, number>>> {
  return Object.freeze(
    Object.fromEntries(
      PRIOR_ONLY_PARAMETERS.map((parameter) => {
        const { range, scale } = PERSONA_PRIORS[parameter];
        const value = edge === 'low' ? range[0] : range[1];
        return [parameter, scale === 'integer' ? (edge === 'low' ? Math.ceil(value) : Math.floor(value)) : value];
      }),
    ),
  );
}

/**
 * `persona` with every prior-only parameter at one edge of its range: what a conclusion
 * rests on when nothing but a documented prior sets those values.
 *
 * @example
 * atPriorEdge(persona, 'high')['help'].probability; // 1
 */
export function atPriorEdge(persona: Persona, edge: PriorEdge): Persona {
  return withParameters(persona, priorEdgeValues(edge));
}
