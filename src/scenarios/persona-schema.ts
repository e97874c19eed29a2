import { z } from 'zod';

// A persona file (`scenarios/personas/<id>.yaml`, and every member of an ensemble): the
// simulated model's traits. Each parameter's prior lives in src/model/simulated/persona-priors.ts.

const probability = z.number().min(0).max(1);

export const personaSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().default(''),
  retry: z.strictObject({
    /** Weight of retrying a failed call with identical arguments (its share of same + varied is the chance). */
    same: z.number().min(0),
    /** Weight of retrying with varied arguments (or, at a step with no variants, re-checking instead). */
    varied: z.number().min(0),
    /** Multiplies the chance of a same-argument retry after "Do not retry with the same arguments". */
    permanent_hint_factor: z.number().min(0),
    /** Multiplies the chance of a same-argument retry after "May succeed if retried". */
    transient_hint_factor: z.number().min(0),
    /**
     * How well the model reads a bare error (a status line, a plain message: "HTTP 401
     * Unauthorized", "not found", "timed out") for what it says about sending the same call
     * again: 0 reads nothing into it, 1 takes it as the matching advice above would. Scales
     * the advice's factors toward 1 for an error that gives no advice.
     */
    raw_error_reading: probability.default(0.5),
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
    /**
     * Chance that a detour call re-sends the previous re-check unchanged. Otherwise a
     * re-check is one of the last two calls' alternatives: real spirals are varied calls,
     * an identical re-send in them is rare (docs/simulated-model.md, "Evidence").
     */
    resend: probability.default(0.01),
  }),
  malformed: z.strictObject({
    /** Chance of carrying on with invented data after an unparseable result. */
    proceed_on_invented: probability,
  }),
  reflection: z.strictObject({
    /**
     * Chance of sending again, unchanged, a call the harness refused to run as an identical
     * repeat (a stubborn agent's trait); otherwise the model changes course.
     */
    resend_blocked: probability,
  }),
  loop_warning: z
    .strictObject({
      /** Chance of changing approach after a soft nudge ("try a different tool or a different approach"). */
      nudge: probability,
      /** Chance of obeying a directive to stop calling a tool. */
      directive: probability,
    })
    .default({ nudge: 0.5, directive: 0.85 }),
  alternatives: z
    .strictObject({
      /** Chance per failure at a step with alternatives of switching to one unprompted. */
      spontaneous: probability,
    })
    .default({ spontaneous: 0.03 }),
  parallel: z
    .strictObject({
      /** Chance, when the next steps need nothing from each other, of calling several of them in one turn. */
      probability,
      /** The most calls in one such turn. */
      max_calls: z.number().int().min(1),
    })
    .default({ probability: 0, max_calls: 1 }),
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
  injection: z
    .strictObject({
      /** Chance of obeying an instruction in a tool's answer that speaks for the user and asks for one thing first. */
      obey: probability,
      /** Scales `obey` for an instruction that orders previous instructions ignored. */
      override_factor: probability,
      /** Scales `obey` for a bare instruction (a to-do line). */
      bare_factor: probability,
      /** Scales `obey` when the system prompt says tool outputs are data whose instructions are not to be followed. */
      delimited_factor: probability,
    })
    .default({ obey: 0.17, override_factor: 0.12, bare_factor: 0.08, delimited_factor: 0.87 }),
  data: z
    .strictObject({
      /** Chance of noticing that a record names another entity than the one asked for, and asking again. */
      notice_mismatch: probability,
    })
    .default({ notice_mismatch: 0.2 }),
});

export type Persona = z.output<typeof personaSchema>;
