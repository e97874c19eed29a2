import { z } from 'zod';
import { FAULT_KINDS } from '../faults/fault-profile.js';

const probability = z.number().min(0).max(1);
const json = z.json();
const toolCall = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), json) });

const faultRates = z.strictObject(Object.fromEntries(FAULT_KINDS.map((kind) => [kind, probability.optional()])));

export const BUDGET_CLASSES = { lookup: 5, standard: 15, research: 40 } as const;
export type BudgetClass = keyof typeof BUDGET_CLASSES;

export const planStepSchema = z.strictObject({
  /** Name other steps use to refer to this step's result as `$<id>`. */
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'a lower-case identifier'),
  tool: z.string().min(1),
  /** Arguments; a string `$<step id>` stands for that earlier step's latest good result. */
  args: z.record(z.string(), json),
  /** Other argument sets the model tries when it retries "with varied arguments". */
  variants: z.array(z.record(z.string(), json)).default([]),
  /** A read that tells the model whether this (side-effecting) step already happened. */
  verify: toolCall.optional(),
});

export const scenarioSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'kebab-case, e.g. fetch-transform-write'),
  title: z.string().min(1),
  description: z.string().default(''),
  system: z.string().default('You are an agent that completes tasks by calling tools.'),
  prompt: z.string().min(1),
  tools: z.array(z.string().min(1)).min(1),
  budget_class: z.enum(Object.keys(BUDGET_CLASSES) as [BudgetClass, ...BudgetClass[]]),
  persona: z.string().default('default'),
  world: z.strictObject({ records: z.record(z.string(), z.record(z.string(), json)).default({}) }),
  faults: z
    .strictObject({
      rates: faultRates.default({}),
      tools: z.record(z.string(), faultRates).default({}),
      retry_after_ms: z.number().int().min(0).default(1000),
      timeout_ms: z.number().int().min(0).default(10_000),
    })
    .default({ rates: {}, tools: {}, retry_after_ms: 1000, timeout_ms: 10_000 }),
  plan: z.strictObject({
    steps: z.array(planStepSchema).min(1),
    /** Calls the model makes when it wanders off the plan to re-check things. */
    detours: z.array(toolCall).default([]),
    /** What the model reports when the plan is done. */
    final: z.string().min(1),
  }),
  /** The world the run must leave behind to succeed. */
  check: z.strictObject({ outbox: z.array(z.strictObject({ key: z.string(), value: json })) }),
});

export type ScenarioFile = z.output<typeof scenarioSchema>;
export type PlanStep = z.output<typeof planStepSchema>;

export const personaSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().default(''),
  retry: z.strictObject({
    /** Weight of retrying a failed call with identical arguments (its share of same + varied is the chance). */
    same: z.number().min(0),
    /** Weight of retrying with varied arguments (or, at a step with no variants, re-checking instead). */
    varied: z.number().min(0),
    /** Multiplies the chance of repeating the exact failed call, as a retry or a detour, after "Do not retry with the same arguments". */
    permanent_hint_factor: z.number().min(0),
    /** Multiplies the chance of a same-argument retry after "May succeed if retried". */
    transient_hint_factor: z.number().min(0),
  }),
  give_up: z.strictObject({
    /** Chance of giving up after the first failure at a step... */
    base: probability,
    /** ...plus this for every further failure at the same step... */
    per_failure: probability,
    /** ...capped here. */
    max: probability,
    /** Chance per call of abandoning the task while stuck in a detour. */
    in_detour: probability,
  }),
  detour: z.strictObject({
    /** Chance of wandering off the plan after an error. */
    after_error: probability,
    /** Chance of wandering off after a malformed (unparseable) result. */
    after_malformed: probability,
    /** Chance of re-checking something after a good result. */
    after_success: probability,
    /** Chance of staying in a detour after its first call... */
    persistence: probability,
    /** ...growing by this with every further detour call (confusion feeds itself)... */
    persistence_growth: probability,
    /** ...up to this. */
    persistence_max: probability,
  }),
  malformed: z.strictObject({
    /** Chance of carrying on with invented data after an unparseable result. */
    proceed_on_invented: probability,
  }),
  reflection: z.strictObject({
    /** Chance of changing approach after being told a call was an identical repeat. */
    change_approach: probability,
  }),
  help: z.strictObject({
    /** Failures at the same step before asking for help (when that tool is offered). */
    after_failures: z.number().int().min(1),
    /** Chance of asking once that many failures are reached. */
    probability,
  }),
  verify: z.strictObject({
    /** Chance of checking a side-effecting step after an error that says it may have been applied. */
    when_warned: probability,
    /** Chance of checking after a plain error. */
    after_error: probability,
  }),
  final: z.strictObject({
    /** Chance the final answer claims success when the work is not done. */
    false_success_claim: probability,
  }),
});

export type Persona = z.output<typeof personaSchema>;
