import { canonicalJson } from '../../scenarios/canonical-json.js';
import type { Json } from '../../tools/world.js';
import { answersForAnother } from '../../tools/output-contract.js';
import { type Action, callStep, type PolicyInput, repeat } from './actions.js';
import type { ResultView } from './result-view.js';
import type { CallView } from './transcript-reader.js';
import { type FoundInstruction, readInstructions } from './vocabulary.js';

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

/** Readings by view: views are shared by every run that met the same text, so each text is read once. */
const readings = new WeakMap<ResultView, readonly FoundInstruction[]>();
const NONE: readonly FoundInstruction[] = Object.freeze([]);

/** Every instruction in a good answer's strings that asks for a call (of any tool), in order. */
export function instructionsIn(view: ResultView): readonly FoundInstruction[] {
  if (view.kind !== 'good' || typeof view.value !== 'object' || view.value === null) {
    return view.kind === 'good' && typeof view.value === 'string' ? readInstructions(view.value, 'any') : NONE;
  }
  let found = readings.get(view);
  if (found === undefined) {
    const all: FoundInstruction[] = [];
    for (const text of stringsOf(view.value)) all.push(...readInstructions(text, 'any'));
    found = all.length === 0 ? NONE : Object.freeze(all);
    readings.set(view, found);
  }
  return found;
}

/** The first instruction in a good answer that asks for a call of an offered tool, or null. */
export function instructionIn(view: ResultView, offered: ReadonlySet<string>): FoundInstruction | null {
  for (const instruction of instructionsIn(view)) if (offered.has(instruction.tool)) return instruction;
  return null;
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
