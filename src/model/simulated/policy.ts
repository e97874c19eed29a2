import {
  type Action,
  alternative,
  askForHelp,
  askForMoreTurns,
  callStep,
  detour,
  finalAnswer,
  hintFactor,
  MORE_TURNS_TOOL,
  type PolicyInput,
  recordFinding,
  repeat,
  verify,
} from './actions.js';
import { afterRefusal } from './after-refusal.js';
import { askAgainForTheRightOne, backToTask, obeyInstruction } from './instructions-in-results.js';
import type { CallView } from './transcript-reader.js';
import { type LoopWarning, offersMoreTurns, readLoopWarning, saysNoMoreTools } from './vocabulary.js';

export type { Action, PlannedCall, PolicyInput } from './actions.js';

/**
 * Heeding a loop warning. After a nudge: another tool for the step if the plan knows one,
 * back to the plan from a detour, help after enough failures, or another form of the call.
 * After "stop calling X": another tool, back to the plan if X was a detour, help if it
 * can be asked for, else give up in words rather than call X again.
 */
function heedWarning(warning: LoopWarning, last: CallView, failures: number, input: PolicyInput): Action {
  const { plan, state, persona, helpTool } = input;
  const avoid = warning.kind === 'directive' ? warning.tool : null;
  const other = alternative(input, avoid);
  if (other !== null) return other;
  const stepTool = plan.steps[state.nextStep]?.tool;
  if (last.role === 'detour' || (avoid !== null && avoid !== stepTool)) return callStep(state.nextStep, input);
  if (helpTool !== null && (avoid !== null || failures >= persona.help.after_failures))
    return askForHelp(input, helpTool);
  if (avoid !== null) return finalAnswer(input);
  return callStep(state.nextStep, input, true);
}

/**
 * Retry the failed call: unchanged with the persona's share of `same`, scaled by what the
 * error said; otherwise with varied arguments, or, where the step has no other form, by
 * looking at the problem from another side.
 */
function retry(last: CallView, input: PolicyInput): Action {
  const { persona, rng, plan } = input;
  const total = persona.retry.same + persona.retry.varied;
  const share = total === 0 ? 0 : persona.retry.same / total;
  if (rng.chance(Math.min(1, share * hintFactor(last, persona)))) return repeat(last, input);
  const hasVariants = (plan.steps[last.step]?.variants.length ?? 0) > 0;
  return hasVariants ? callStep(last.step, input, true) : detour(input);
}

/** The last call other than a request for more turns (a plain loop: findLast with a closure was a hot spot of every turn). */
function lastTaskCall(calls: readonly CallView[]): CallView | undefined {
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i]!.name !== MORE_TURNS_TOOL) return calls[i];
  return undefined;
}

/**
 * The persona's choice for this turn, from the visible state only. Every probability is
 * a persona parameter; the words of the last result and the request's tool settings are
 * the only things that modulate them.
 */
export function decide(input: PolicyInput): Action {
  const { state, persona, plan, rng, offered, helpTool } = input;
  const { lastUserText } = state;
  if (input.toolsDisabled || saysNoMoreTools(lastUserText)) return finalAnswer(input);
  if (helpTool !== null && input.forcedTool === helpTool) return askForHelp(input, helpTool);
  if (state.nextStep >= plan.steps.length) return finalAnswer(input);
  if (offered.has(MORE_TURNS_TOOL) && offersMoreTurns(lastUserText, MORE_TURNS_TOOL)) return askForMoreTurns(input);

  // Asking for more turns is about the run, not the task: the model carries on from the call before.
  const last = lastTaskCall(state.calls);
  if (last === undefined) return callStep(state.nextStep, input);
  const record = recordFinding(last, input);
  if (record !== null) return record;
  const obeyed = obeyInstruction(last, input) ?? backToTask(last, input);
  if (obeyed !== null) return obeyed;
  const failures = last.step >= 0 ? (state.failuresAt[last.step] ?? 0) : 0;

  const warning = readLoopWarning(lastUserText, offered);
  if (
    warning !== null &&
    rng.chance(warning.kind === 'nudge' ? persona.loop_warning.nudge : persona.loop_warning.directive)
  ) {
    return heedWarning(warning, last, failures, input);
  }

  if (last.result.kind === 'refused') return afterRefusal(last, input);

  if (last.role === 'detour') {
    if (rng.chance(persona.give_up.in_detour)) return finalAnswer(input);
    const { persistence, persistence_growth: growth, persistence_max: max } = persona.detour;
    const stay = Math.min(max, persistence + growth * (state.detourRun - 1));
    return rng.chance(stay) ? detour(input) : callStep(state.nextStep, input);
  }

  switch (last.result.kind) {
    case 'good':
      return (askAgainForTheRightOne(last, input) ?? rng.chance(persona.detour.after_success))
        ? detour(input)
        : callStep(state.nextStep, input);
    case 'malformed':
      if (rng.chance(persona.malformed.proceed_on_invented)) {
        // Carrying on: the next step is built from whatever could be read of the result.
        return last.step + 1 >= plan.steps.length
          ? { kind: 'final', text: plan.final }
          : callStep(last.step + 1, input);
      }
      return rng.chance(persona.detour.after_malformed) ? detour(input) : repeat(last, input);
    case 'error':
    case 'empty':
    case 'missing': {
      if (helpTool !== null && failures >= persona.help.after_failures && rng.chance(persona.help.probability))
        return askForHelp(input, helpTool);
      // Now and then an agent thinks of another way in by itself (only where the plan knows one).
      if ((plan.steps[last.step]?.alternatives.length ?? 0) > 0 && rng.chance(persona.alternatives.spontaneous)) {
        const other = alternative(input);
        if (other !== null) return other;
      }
      const { base, per_failure: perFailure, max } = persona.give_up;
      if (rng.chance(Math.min(max, base + perFailure * Math.max(0, failures - 1)))) return finalAnswer(input);
      const verifiable = plan.steps[last.step]?.verify !== undefined;
      const warned = last.result.kind === 'error' && last.result.mayHaveApplied;
      if (verifiable && rng.chance(warned ? persona.verify.when_warned : persona.verify.after_error))
        return verify(last.step, input);
      if (rng.chance(persona.detour.after_error)) return detour(input);
      return retry(last, input);
    }
  }
}
