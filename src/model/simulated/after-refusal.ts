import { canonicalJson } from '../../scenarios/canonical-json.js';
import {
  type Action,
  alternative,
  askForHelp,
  callStep,
  detour,
  finalAnswer,
  otherForm,
  type PolicyInput,
  sameCall,
  verify,
} from './actions.js';
import type { CallView } from './transcript-reader.js';

/**
 * The latest call before `last` with the same tool and arguments that ran (a refused one
 * tells nothing), read from the transcript; undefined when none is in it any more.
 */
function earlierRun(calls: readonly CallView[], last: CallView): CallView | undefined {
  let text: string | undefined;
  for (let i = calls.length - 2; i >= 0; i--) {
    const call = calls[i]!;
    if (call.name !== last.name || call.result.kind === 'refused') continue;
    text ??= canonicalJson(last.input);
    if (canonicalJson(call.input) === text) return call;
  }
  return undefined;
}

/** Calls refused in a row at the end of the transcript, the last one among them, all the same call as `last`. */
function refusedInARow(calls: readonly CallView[], last: CallView): number {
  let count = 0;
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i]!;
    if (call.result.kind !== 'refused' || !sameCall(call.name, call.input, last)) break;
    count += 1;
  }
  return count;
}

/** The stubborn reaction: the harness did not run the call, and the model sends it again unchanged. */
function resend(last: CallView): Action {
  return {
    kind: 'call',
    tool: last.name,
    input: last.input,
    note: `The ${last.name} call was not run, but I still think it is the right call, so I will send it again.`,
  };
}

/**
 * Whether the last attempt at `step` was an error that said its side effect may have
 * happened, with no check since (a check that found it would have moved the model on).
 */
function leftUnchecked(step: number, calls: readonly CallView[]): boolean {
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i]!;
    if (call.step !== step || call.result.kind === 'refused') continue;
    return call.role === 'plan' && call.result.kind === 'error' && call.result.mayHaveApplied;
  }
  return false;
}

/**
 * Back to the task from a call it did not need: the next plan step not yet done, picked
 * up where it was left. A write whose last attempt may have gone through is checked
 * first, as the persona checks after such an error (`verify.when_warned`).
 */
function backToPlan(input: PolicyInput): Action {
  const { state, plan, persona, rng } = input;
  const next = state.nextStep;
  if (
    plan.steps[next]?.verify !== undefined &&
    leftUnchecked(next, state.calls) &&
    rng.chance(persona.verify.when_warned)
  )
    return verify(next, input);
  const action = callStep(next, input);
  return action.kind === 'call'
    ? {
        ...action,
        note: `I already made that call and have its result; checking again will not tell me more. Back to the task: ${action.note}`,
      }
    : action;
}

/**
 * A plan step whose earlier identical call failed, and the harness said the same call will
 * fail the same way: help once genuine failures at the step reach the persona's threshold,
 * else another tool the plan knows for the step, a check of a side effect that may have
 * happened, another form of the call, or a look at the problem from another side.
 */
function changeCourse(last: CallView, input: PolicyInput): Action {
  const { persona, rng, plan, state, helpTool } = input;
  const step = plan.steps[last.step];
  const failures = state.failuresAt[last.step] ?? 0;
  if (helpTool !== null && failures >= persona.help.after_failures && rng.chance(persona.help.probability))
    return askForHelp(input, helpTool);
  const other = alternative(input);
  if (other !== null) return other;
  if (step?.verify !== undefined) return verify(last.step, input);
  return otherForm(last.step, input, last) ?? detour(input);
}

/**
 * Anything but the call just refused: an action that would send it again (a check that
 * was itself refused, the plan's next call when that is what was refused) becomes the
 * plan's next call, a re-check, or, with nothing else left, the answer the model has.
 */
function notAgain(action: Action, last: CallView, input: PolicyInput): Action {
  if (action.kind !== 'call' || !sameCall(action.tool, action.input, last)) return action;
  for (const next of [callStep(input.state.nextStep, input), detour(input)])
    if (next.kind !== 'call' || !sameCall(next.tool, next.input, last)) return next;
  return finalAnswer(input);
}

/**
 * The model's reaction to a call the harness did not run, as a competent agent reacts to
 * being told so (docs/simulated-model.md). Past a limit on calls it answers with what it
 * has. A refused repeat is not a failure of the task, and the model does not send the same
 * call again, unless the persona is one that does (`reflection.resend_blocked`): it reads
 * the result of the identical call it made before. A detour (or a check) it already made
 * sends it back to its plan; a step whose identical call worked is done, so it moves on; a
 * step whose identical call failed needs a different call.
 */
export function afterRefusal(last: CallView, input: PolicyInput): Action {
  if (last.result.kind === 'refused' && last.result.by === 'limit') return finalAnswer(input);
  // Each refusal in a row makes sending it once more less likely: told twice, even a stubborn model thinks again.
  const { resend_blocked: stubborn } = input.persona.reflection;
  if (input.rng.chance(stubborn ** refusedInARow(input.state.calls, last))) return resend(last);
  return notAgain(reaction(last, input), last, input);
}

function reaction(last: CallView, input: PolicyInput): Action {
  if (last.role !== 'plan') return backToPlan(input);
  const earlier = earlierRun(input.state.calls, last);
  if (earlier?.result.kind === 'good') return backToPlan(input);
  return changeCourse(last, input);
}
