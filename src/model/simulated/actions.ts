import type { Rng } from '../../random/streams.js';
import type { ScenarioFile } from '../../scenarios/schema.js';
import type { Persona } from '../../scenarios/persona-schema.js';
import { canonicalJson } from '../../scenarios/canonical-json.js';
import { parallelSteps } from './parallel-steps.js';
import { forgottenInput, resolveArgs, stepsReferenced } from './plan-arguments.js';
import { factsOf, formatCall } from './summary-text.js';
import type { CallView, TranscriptState } from './transcript-reader.js';

/**
 * The actions the simulated model can take, each built from what the transcript shows:
 * the next plan step, a retry, a detour, a check, a call for help, a final answer. Which
 * one it takes is decided in policy.ts.
 */

/** What the model does this turn. */
export type Action =
  /** One tool call, and `more` made in the same turn (independent steps called together). */
  | {
      readonly kind: 'call';
      readonly tool: string;
      readonly input: Record<string, unknown>;
      readonly note: string;
      readonly more?: readonly PlannedCall[];
    }
  | { readonly kind: 'final'; readonly text: string };

export interface PlannedCall {
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

export type Plan = ScenarioFile['plan'];

export interface PolicyInput {
  readonly state: TranscriptState;
  readonly persona: Persona;
  readonly plan: Plan;
  /** Tool names the request offers. */
  readonly offered: ReadonlySet<string>;
  /** The offered tool that asks a person for help (read from its name and description), or null. */
  readonly helpTool: string | null;
  /** A tool the request forces through tool_choice, or null. */
  readonly forcedTool: string | null;
  /** tool_choice "none": the model may only answer in text. */
  readonly toolsDisabled: boolean;
  /** The system prompt says tool outputs are data, whose instructions are not to be followed. @default false */
  readonly outputIsData?: boolean;
  readonly rng: Rng;
}

export function callStep(step: number, input: PolicyInput, variant = false): Action {
  const planStep = input.plan.steps[step];
  if (planStep === undefined) return finalAnswer(input);
  // A step whose tool the request does not offer cannot be done: the model says what it has.
  if (!input.offered.has(planStep.tool)) return finalAnswer(input);
  // A model does not fill in what it can no longer see: it fetches the missing input again first.
  const missing = variant ? -1 : forgottenInput(step, input);
  if (missing !== -1) {
    const again = input.plan.steps[missing]!;
    return {
      kind: 'call',
      tool: again.tool,
      input: resolveArgs(again.args, input),
      note: `I no longer have the result of the '${again.id}' step in front of me, so I will fetch it again before going on.`,
    };
  }
  const args = variant && planStep.variants.length > 0 ? input.rng.pick(planStep.variants) : planStep.args;
  const note = variant
    ? `The ${planStep.tool} call keeps failing with these arguments, so I will adjust the request slightly and try a different form of the same call.`
    : `Next is the '${planStep.id}' step: I will call ${planStep.tool} with what the task and the earlier results give me, then check the result before moving on.`;
  const call = { kind: 'call', tool: planStep.tool, input: resolveArgs(args, input), note } as const;
  if (variant || step !== input.state.nextStep) return call;
  // Steps that need nothing from each other may go out together, as agents batch reads.
  const { parallel } = input.persona;
  const together = parallelSteps(input.plan.steps, step, parallel.max_calls);
  if (together.length < 2) return call;
  // Steps it already has a result for (a batch where one call failed) are not asked again.
  const batch = together.filter((index) => index === step || input.state.stepResults[index] === undefined);
  if (batch.length < 2 || !input.rng.chance(parallel.probability)) return call;
  const more = batch.slice(1).map((index) => {
    const next = input.plan.steps[index]!;
    return { tool: next.tool, input: resolveArgs(next.args, input) };
  });
  const ids = batch.map((index) => `'${input.plan.steps[index]!.id}'`).join(', ');
  return { ...call, note: `The steps ${ids} do not depend on each other, so I will make those calls together.`, more };
}

/**
 * How the words of a failed call's result scale the chance of making exactly that call
 * again: advice ("Do not retry with the same arguments", "May succeed if retried") by the
 * persona's factor for it; a bare error by the same factor drawn toward 1 as far as the
 * persona reads bare errors (`retry.raw_error_reading`): "HTTP 401 Unauthorized" is read
 * as permanent, "request timed out" as transient, each partly.
 */
export function hintFactor(last: CallView, persona: Persona): number {
  if (last.result.kind !== 'error') return 1;
  const { hint, status } = last.result;
  const {
    permanent_hint_factor: permanent,
    transient_hint_factor: transient,
    raw_error_reading: reading,
  } = persona.retry;
  if (hint === 'permanent') return permanent;
  if (hint === 'transient') return transient;
  if (status === 'permanent') return 1 + reading * (permanent - 1);
  if (status === 'transient') return 1 + reading * (transient - 1);
  return 1;
}

export function sameCall(tool: string, args: Record<string, unknown>, call: CallView): boolean {
  return tool === call.name && canonicalJson(args) === canonicalJson(call.input);
}

/** A detour as the model may send it: its tool and arguments, resolved where they refer to a step. */
interface DetourForm {
  readonly call: Plan['detours'][number];
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** `Object.keys(args)`, read once per form rather than on every comparison. */
  readonly keys: readonly string[];
}

function formOf(call: Plan['detours'][number], args: Record<string, unknown>): DetourForm {
  return { call, tool: call.tool, args, keys: Object.keys(args) };
}

/** How many own enumerable keys an object has: `Object.keys(value).length`, without the array. */
function keyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count += 1;
  return count;
}

/** The detours of each plan whose arguments refer to no step, read once: most plans' detours are literal calls. */
const literalDetours = new WeakMap<Plan['detours'], readonly DetourForm[] | null>();

function detourForms(input: PolicyInput): readonly DetourForm[] {
  const { detours } = input.plan;
  let forms = literalDetours.get(detours);
  if (forms === undefined) {
    const literal = detours.every((call) => !JSON.stringify(call.args).includes('"$'));
    forms = literal ? Object.freeze(detours.map((call) => formOf(call, call.args))) : null;
    literalDetours.set(detours, forms);
  }
  return forms ?? detours.map((call) => formOf(call, resolveArgs(call.args, input)));
}

/**
 * Whether a call is this detour: the same tool and the same arguments. Detours' arguments
 * are mostly a few plain values, compared one by one; anything deeper as canonical JSON.
 */
function isForm(call: CallView, form: DetourForm): boolean {
  if (call.name !== form.tool) return false;
  const { keys } = form;
  if (keyCount(call.input) !== keys.length) return false;
  for (const key of keys) {
    const value = form.args[key];
    if (typeof value === 'object' && value !== null) return sameCall(form.tool, form.args, call);
    if (call.input[key] !== value) return false;
  }
  return true;
}

/**
 * Wander off the plan to re-check something: another record, another query, another
 * tool. A re-check is one the model did not make in its last two calls, as real spirals
 * are made of varied calls; only now and then (`detour.resend`) is the last re-check sent
 * again unchanged. With nothing left to re-check, back to the plan.
 */
export function detour(input: PolicyInput): Action {
  const { plan, rng, state, persona } = input;
  if (plan.detours.length === 0) return callStep(state.nextStep, input);
  const last = state.calls.at(-1);
  if (last?.role === 'detour' && rng.chance(persona.detour.resend))
    return {
      kind: 'call',
      tool: last.name,
      input: last.input,
      note: 'That answer did not settle it; I will look at the same thing once more.',
    };
  // The last two calls: the window a re-check stays out of, and the one the repeat guard watches.
  const { calls } = state;
  const before = calls.length >= 2 ? calls[calls.length - 2] : undefined;
  // A loop, not filter: the plan's forms are a frozen array, which filter walks on its slow path.
  const forms = detourForms(input);
  const fresh: DetourForm[] = [];
  for (let i = 0; i < forms.length; i++) {
    const form = forms[i]!;
    if (!(last !== undefined && isForm(last, form)) && !(before !== undefined && isForm(before, form)))
      if (input.offered.has(form.tool))
        // Only with a tool the request offers: a model cannot call one it was not given.
        fresh.push(form);
  }
  if (fresh.length === 0) return callStep(state.nextStep, input);
  const form = rng.pick(fresh);
  return {
    kind: 'call',
    tool: form.tool,
    // A fresh copy of literal arguments (the plan's own are shared); resolved ones are the model's already.
    input: form.args === form.call.args ? resolveArgs(form.args, input) : form.args,
    note: 'Before going further I want to double-check the data I have; something about the last result seems off, so I will look it up another way.',
  };
}

/**
 * The step's call in a form other than `refused` (its own arguments or a variant), or
 * null when the step has no other form.
 */
export function otherForm(step: number, input: PolicyInput, refused: CallView): Action | null {
  const planStep = input.plan.steps[step];
  if (planStep === undefined) return null;
  const forms: Record<string, unknown>[] = [];
  for (const args of [planStep.args, ...planStep.variants]) {
    const resolved = resolveArgs(args, input);
    if (!sameCall(planStep.tool, resolved, refused)) forms.push(resolved);
  }
  if (forms.length === 0) return null;
  return {
    kind: 'call',
    tool: planStep.tool,
    input: forms.length === 1 ? forms[0]! : input.rng.pick(forms),
    note: `The ${planStep.tool} call was not run as I sent it, so I will send it in another form.`,
  };
}

export function verify(step: number, input: PolicyInput): Action {
  const check = input.plan.steps[step]?.verify;
  if (check === undefined) return callStep(step, input);
  return {
    kind: 'call',
    tool: check.tool,
    input: resolveArgs(check.args, input),
    note: 'That call reported an error, but the write may have gone through. I will read the outbox back to check before writing anything again.',
  };
}

export function repeat(last: CallView, input: PolicyInput): Action {
  // A call written badly is written afresh, not copied: a model sending "the same call"
  // again writes out the arguments it means, as its plan gives them.
  if (last.garbled && last.step >= 0) {
    const again = callStep(last.step, input);
    if (again.kind === 'call')
      return {
        ...again,
        note: `The ${last.name} call did not go through as I wrote it. I will send it again with its arguments as plain JSON.`,
      };
  }
  const what =
    last.result.kind === 'error' ? `failed ("${last.result.text.slice(0, 60)}")` : 'did not give me what I need';
  return {
    kind: 'call',
    tool: last.name,
    input: last.input,
    note: `The ${last.name} call ${what}. This could be temporary, so I will try the same call again.`,
  };
}

export function askForHelp(input: PolicyInput, helpTool: string): Action {
  const { state, plan } = input;
  const step = plan.steps[state.nextStep];
  const attempted = [...new Set(state.calls.map((call) => call.name))];
  return {
    kind: 'call',
    tool: helpTool,
    input: {
      summary: `I am stuck at step '${step?.id ?? 'final'}' after ${state.calls.length} tool calls.`,
      attempted_approaches: attempted.map((name) => `called ${name}`),
      specific_question: `How should I proceed with ${step?.tool ?? 'the task'}?`,
    },
    note: 'I keep failing at the same step and more guesses will not help. I will ask a human for guidance.',
  };
}

const JOURNAL_APPEND_TOOL = 'append_run_journal_entry';

/** A verified finding as the model writes it into a run journal: the call and the short facts of its result. */
function journalEntry(call: CallView): string | null {
  if (call.result.kind !== 'good') return null;
  return formatCall({ kind: 'succeeded', name: call.name, input: call.input, facts: factsOf(call.result.value) }).slice(
    2,
  );
}

/**
 * With a run journal offered, a plan step's good result that a later step needs is written
 * down first, once, so it outlives the transcript.
 */
export function recordFinding(last: CallView, input: PolicyInput): Action | null {
  const { plan, state, offered } = input;
  if (!offered.has(JOURNAL_APPEND_TOOL) || last.role !== 'plan' || last.step < 0) return null;
  const needed = plan.steps.some((_, later) => later > last.step && stepsReferenced(later, plan).includes(last.step));
  const entry = journalEntry(last);
  if (!needed || entry === null || state.journaled.includes(entry)) return null;
  return {
    kind: 'call',
    tool: JOURNAL_APPEND_TOOL,
    input: { section: 'verified_findings', text: entry },
    note: 'I will record this finding in the run journal so that it is not lost.',
  };
}

export const MORE_TURNS_TOOL = 'request_more_iterations';

/** Unfinished work and a way to get more turns: the model asks, saying what is left. */
export function askForMoreTurns(input: PolicyInput): Action {
  const { state, plan } = input;
  const left = plan.steps.slice(state.nextStep).map((step) => step.id);
  return {
    kind: 'call',
    tool: MORE_TURNS_TOOL,
    input: { reason: `${left.length} step(s) of the task remain (${left.join(', ')}).` },
    note: 'I am nearly out of turns and the task is not finished, so I will ask for more.',
  };
}

/**
 * Another tool that serves the step the model is at, one it was not told to stop
 * calling, or null. The plan names them: the model's own idea of another way in.
 */
export function alternative(input: PolicyInput, avoid: string | null = null): Action | null {
  const { plan, state, offered, rng } = input;
  const step = plan.steps[state.nextStep];
  const usable = (step?.alternatives ?? []).filter((call) => offered.has(call.tool) && call.tool !== avoid);
  if (step === undefined || usable.length === 0) return null;
  const call = usable.length === 1 ? usable[0]! : rng.pick(usable);
  return {
    kind: 'call',
    tool: call.tool,
    input: resolveArgs(call.args, input),
    note: `${step.tool} is not getting me what I need for the '${step.id}' step. ${call.tool} should have it directly, so I will use that instead.`,
  };
}

export function finalAnswer(input: PolicyInput): Action {
  const { state, plan, persona, rng } = input;
  if (state.nextStep >= plan.steps.length || rng.chance(persona.final.false_success_claim)) {
    return { kind: 'final', text: plan.final };
  }
  const step = plan.steps[state.nextStep];
  return {
    kind: 'final',
    text: `I could not complete the task: ${step?.tool ?? 'a step'} kept failing, so the work is unfinished.`,
  };
}
