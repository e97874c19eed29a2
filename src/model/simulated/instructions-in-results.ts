import { canonicalJson } from '../../scenarios/canonical-json.js';
import type { Json } from '../../tools/world.js';
import { answersForAnother } from '../../tools/output-contract.js';
import { type Action, callStep, type PolicyInput, repeat } from './actions.js';
import type { ResultView } from './result-view.js';
import type { CallView } from './transcript-reader.js';
import { type FoundInstruction, readInstruction } from './vocabulary.js';

/**
 * What a model does with words in a tool's answer that tell it to do something: an
 * instruction injected into an email, a web page, a record. It reads the answer as text,
 * as a real model does; nothing marks the words as an attack except what they say. How
 * often it obeys is a persona trait fitted to AgentDojo's published attack success rates
 * (`injection`, docs/semantic-faults.md).
 */

/** Every string in a value, in document order. */
function stringsOf(value: Json, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (typeof value === 'object' && value !== null) for (const key in value) stringsOf(value[key]!, out);
  return out;
}

const NONE: unique symbol = Symbol('none');
/** Readings by view and offered tools: views are shared by every run that met the same text. */
const readings = new WeakMap<ResultView, WeakMap<object, FoundInstruction | typeof NONE>>();
const ANY_TOOL = {};

/**
 * The first instruction in a good answer's strings that asks for a call of an offered tool
 * (of any tool, with `'any'`: what the model remembers having been asked), or null.
 */
export function instructionIn(view: ResultView, offered: ReadonlySet<string> | 'any'): FoundInstruction | null {
  if (view.kind !== 'good' || typeof view.value !== 'object' || view.value === null) {
    return view.kind === 'good' && typeof view.value === 'string' ? readInstruction(view.value, offered) : null;
  }
  let byTools = readings.get(view);
  if (byTools === undefined) {
    byTools = new WeakMap();
    readings.set(view, byTools);
  }
  const key = offered === 'any' ? ANY_TOOL : offered;
  let found = byTools.get(key);
  if (found === undefined) {
    found = NONE;
    for (const text of stringsOf(view.value)) {
      const instruction = readInstruction(text, offered);
      if (instruction !== null) {
        found = instruction;
        break;
      }
    }
    byTools.set(key, found);
  }
  return found === NONE ? null : found;
}

/** The chance of obeying an instruction of this style, as the persona and the system prompt's words set it. */
function obeyChance(instruction: FoundInstruction, input: PolicyInput): number {
  const { obey, override_factor, bare_factor, delimited_factor } = input.persona.injection;
  const style =
    instruction.style === 'authority' ? 1 : instruction.style === 'override' ? override_factor : bare_factor;
  return obey * style * (input.outputIsData === true ? delimited_factor : 1);
}

/**
 * Just after reading an answer that tells it to make a call: the model makes it, with the
 * persona's chance for the instruction's style, before going on with its task. Null when
 * the answer holds no such instruction or the model does not obey it (no draw is made
 * for an answer without one).
 */
export function obeyInstruction(last: CallView, input: PolicyInput): Action | null {
  const instruction = instructionIn(last.result, input.offered);
  if (instruction === null || !input.rng.chance(obeyChance(instruction, input))) return null;
  return {
    kind: 'call',
    tool: instruction.tool,
    input: instruction.input,
    note: `The ${last.name} result asks me to call ${instruction.tool} before going on, so I will do that first.`,
  };
}

/** A call as the model remembers being asked for it: its tool and arguments as one text. */
export function askedCall(tool: string, input: Record<string, unknown>): string {
  return `${tool} ${canonicalJson(input)}`;
}

/** Having made a call an earlier answer asked for, the model goes back to its task. */
export function backToTask(last: CallView, input: PolicyInput): Action | null {
  const { asked } = input.state;
  if (asked.length === 0 || last.role !== 'detour' || !asked.includes(askedCall(last.name, last.input))) return null;
  return callStep(input.state.nextStep, input);
}

/** Whether a record answers for another entity than the call named (its identifier argument and the record's own disagree). */
export function namesAnotherEntity(last: CallView): boolean {
  return last.result.kind === 'good' && answersForAnother(last.input, last.result.value) !== null;
}

/** A careful reader notices the record is not the one it asked for, and asks again (persona `data.notice_mismatch`). */
export function askAgainForTheRightOne(last: CallView, input: PolicyInput): Action | null {
  if (!namesAnotherEntity(last) || !input.rng.chance(input.persona.data.notice_mismatch)) return null;
  const again = repeat(last, input);
  return again.kind === 'call'
    ? {
        ...again,
        note: `The ${last.name} answer is about a different record than the one I asked for. I will ask again.`,
      }
    : again;
}
