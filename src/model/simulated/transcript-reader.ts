import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { stepServed } from '../../scenarios/plan-matching.js';
import { sharedPrefix, TranscriptReadings } from '../transcript-prefix.js';
import type { PlanStep } from '../../scenarios/schema.js';
import type { Json } from '../../tools/world.js';
import { appended } from './appended.js';
import { readOwnArguments } from './own-arguments.js';
import { errorView, viewResult, type ResultView } from './result-view.js';
import { readRecollection, type RecalledCall } from './summary-text.js';
import { askedCall, instructionsIn } from './instructions-in-results.js';

export interface CallView {
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** The plan step the call served, or -1 for a detour. */
  readonly step: number;
  readonly role: 'plan' | 'verify' | 'detour';
  readonly result: ResultView;
  /** The arguments were written as text that is not plain JSON (over Chat Completions); `input` is the model's lenient reading. */
  readonly garbled: boolean;
}

export interface TranscriptState {
  readonly calls: readonly CallView[];
  /** Latest good result of each step, or undefined. */
  readonly stepResults: readonly (Json | undefined)[];
  /** Latest unparseable result text of each step, for a model that carries on regardless. */
  readonly stepMalformed: readonly (string | undefined)[];
  /** Failed calls at each step: what the tools answered, not calls the harness refused to run. */
  readonly failuresAt: readonly number[];
  /** The step after the furthest one the model believes done. */
  readonly nextStep: number;
  /** Detour calls at the end of the transcript, in a row. */
  readonly detourRun: number;
  /** Entries the model has put in a run journal (its own appends, and the journal a compacted transcript shows). */
  readonly journaled: readonly string[];
  /** Calls answers so far asked the model to make (`askedCall`): making one is doing what it was told, not a step of the task. */
  readonly asked: readonly string[];
  /** Plain text of the last user message. */
  readonly lastUserText: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A verify read says the step happened when it found something. */
function verifiedDone(result: ResultView): boolean {
  return result.kind === 'good' && isRecord(result.value) && result.value['found'] !== false;
}

/** The transcript state before the last user message is considered. */
type FoldState = Omit<TranscriptState, 'lastUserText'>;

const initialStates = new WeakMap<readonly PlanStep[], FoldState>();

function initialState(steps: readonly PlanStep[]): FoldState {
  let state = initialStates.get(steps);
  if (state === undefined) {
    state = {
      calls: [],
      stepResults: steps.map(() => undefined),
      stepMalformed: steps.map(() => undefined),
      failuresAt: steps.map(() => 0),
      nextStep: 0,
      detourRun: 0,
      journaled: [],
      asked: [],
    };
    initialStates.set(steps, state);
  }
  return state;
}

/**
 * A fold state being built: the per-step arrays are fresh copies, safe to write; the
 * calls are replaced by a copy one longer on each call (one copy, where a copy made
 * ahead and pushed to was copied again as it grew).
 */
interface Draft {
  calls: readonly CallView[];
  stepResults: (Json | undefined)[];
  stepMalformed: (string | undefined)[];
  failuresAt: number[];
  nextStep: number;
  detourRun: number;
  journaled: readonly string[];
  asked: readonly string[];
}

function draftOf(state: FoldState): Draft {
  return {
    calls: state.calls,
    stepResults: [...state.stepResults],
    stepMalformed: [...state.stepMalformed],
    failuresAt: [...state.failuresAt],
    nextStep: state.nextStep,
    detourRun: state.detourRun,
    journaled: state.journaled,
    asked: state.asked,
  };
}

/** The run-journal tools: keeping notes, not a step of the task nor a detour from it. */
const JOURNAL_TOOLS: ReadonlySet<string> = new Set([
  'get_run_journal',
  'update_run_journal',
  'append_run_journal_entry',
]);

/**
 * An earlier step the model has no reading of at all (it moved past it, but neither a
 * result nor a cut-off body of it is in the transcript any more, e.g. after compaction)
 * that this call serves: fetching it again. -1 when there is none.
 */
function forgottenStep(draft: Draft, steps: readonly PlanStep[], name: string, input: Record<string, unknown>): number {
  for (let s = 0; s < draft.nextStep; s++) {
    if (draft.stepResults[s] !== undefined || draft.stepMalformed[s] !== undefined) continue;
    if (stepServed(steps, s, name, input) === s) return s;
  }
  return -1;
}

/**
 * One tool call and what its result said, folded into the draft. `held`: an earlier call
 * of the same turn failed at a step, which holds the model there; a later step of the
 * turn that worked is kept, and skipped once the model gets past the failed one. Returns
 * whether the turn is held after this call.
 */
function foldCall(
  draft: Draft,
  steps: readonly PlanStep[],
  name: string,
  input: Record<string, unknown>,
  result: ResultView,
  held = false,
  garbled = false,
): boolean {
  const { nextStep } = draft;
  // A call an answer asked for is the model doing as it was told, whatever tool it uses.
  const told = draft.asked.length > 0 && draft.asked.includes(askedCall(name, input));
  let step = told ? -1 : stepServed(steps, nextStep, name, input);
  let role: CallView['role'] = step === -1 ? 'detour' : 'plan';
  if (told) {
    // Neither a step nor a check of one.
  } else if (step === -1 && nextStep < steps.length && steps[nextStep]?.verify?.tool === name) {
    step = nextStep;
    role = 'verify';
  } else if (step === -1) {
    step = forgottenStep(draft, steps, name, input);
    if (step !== -1) role = 'plan';
  }
  if (role === 'plan' && result.kind === 'good') {
    draft.stepResults[step] = result.value;
    if (!held) draft.nextStep = Math.max(nextStep, step + 1);
  } else if (role === 'verify' && verifiedDone(result)) {
    draft.nextStep = step + 1;
  } else if (role === 'plan' && result.kind === 'malformed') {
    draft.stepMalformed[step] = result.text;
  }
  const holds = held || (role === 'plan' && result.kind !== 'good');
  // Only ever moves after a turn of several calls: one call per turn reaches a step at nextStep.
  while (
    !holds &&
    draft.nextStep < steps.length &&
    draft.stepResults[draft.nextStep] !== undefined &&
    draft.nextStep > step
  )
    draft.nextStep += 1;
  // A call the harness refused to run is not evidence that the step is failing: only
  // what a tool answered counts.
  if (step >= 0 && (result.kind === 'error' || result.kind === 'malformed' || result.kind === 'empty')) {
    draft.failuresAt[step] = (draft.failuresAt[step] ?? 0) + 1;
  }
  if (result.kind === 'good')
    for (const instruction of instructionsIn(result))
      draft.asked = appended(draft.asked, askedCall(instruction.tool, instruction.input));
  draft.detourRun = role === 'detour' ? draft.detourRun + 1 : 0;
  draft.calls = appended(draft.calls, { name, input, step, role, result, garbled });
  return holds;
}

/**
 * The result answering a call, the last one given for its id (as a Map of them would
 * keep). A turn has a few calls: a scan is cheaper than building a Map per turn.
 */
function resultFor(blocks: readonly ContentBlockParam[], id: string): ToolResultBlockParam | undefined {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (block.type === 'tool_result' && block.tool_use_id === id) return block;
  }
  return undefined;
}

/** One assistant turn and the results that answer it (the next message), folded into the state. */
function foldTurn(
  state: FoldState,
  assistant: MessageParam,
  after: MessageParam | undefined,
  steps: readonly PlanStep[],
): FoldState {
  if (typeof assistant.content === 'string') return state;
  const results = after?.role === 'user' && typeof after.content !== 'string' ? after.content : [];
  const draft = draftOf(state);
  let held = false;
  for (const block of assistant.content) {
    if (block.type !== 'tool_use') continue;
    const { input, garbled } = readOwnArguments(block.input);
    if (JOURNAL_TOOLS.has(block.name)) {
      if (typeof input['text'] === 'string') draft.journaled = appended(draft.journaled, input['text']);
      continue;
    }
    held = foldCall(draft, steps, block.name, input, viewResult(resultFor(results, block.id)), held, garbled);
  }
  return draft;
}

/** A result a summary line or a pin gives, read the way a result block is read. */
function recalledView(call: RecalledCall): ResultView {
  return call.kind === 'succeeded' ? { kind: 'good', value: call.facts } : errorView(call.error);
}

const recalledStates = new WeakMap<MessageParam, { readonly steps: readonly PlanStep[]; readonly state: FoldState }>();

/**
 * The state a compacted transcript starts from: what its first message (a summary, pinned
 * results, a notice of dropped turns) says happened, folded like the turns themselves. A
 * pinned result is the call's whole result, so it is the model's reading of that step.
 */
function recalledState(message: MessageParam, steps: readonly PlanStep[]): FoldState | null {
  const cached = recalledStates.get(message);
  if (cached !== undefined && cached.steps === steps) return cached.state;
  let text = '';
  if (typeof message.content === 'string') text = message.content;
  else for (const block of message.content) if (block.type === 'text') text += `${block.text}\n`;
  const recollection = readRecollection(text, message);
  if (recollection === null) return null;
  const draft = draftOf(initialState(steps));
  for (const call of recollection.calls) foldCall(draft, steps, call.name, call.input, recalledView(call));
  draft.journaled = recollection.journaled;
  for (const pin of recollection.pinned) {
    const view = viewResult({ type: 'tool_result', tool_use_id: 'pinned', content: pin.text });
    if (view.kind !== 'good') continue;
    const step = stepServed(steps, 0, pin.name, pin.input);
    if (step === -1) continue;
    draft.stepResults[step] = view.value;
    draft.nextStep = Math.max(draft.nextStep, step + 1);
  }
  recalledStates.set(message, { steps, state: draft });
  return draft;
}

/**
 * A transcript array's reading so far, with the messages it covered. `full` is the fold
 * before `seen`'s last message and `partial` the fold before the one ahead of it: the
 * loop appends to its live transcript or replaces its last message (a note added to the
 * results), so the next call resumes from one of the two.
 */
interface Progress {
  readonly steps: readonly PlanStep[];
  readonly seen: MessageParam[];
  full: FoldState;
  partial: FoldState;
}

const progress = new TranscriptReadings<Progress>();

/**
 * Read the model's progress from the transcript it was sent: a fold over its assistant
 * turns, each with the results that answer it. Pure: the same messages give the same
 * state, so a result that compaction removed is a result the model lacks.
 *
 * The reading is resumed where the previous call on the same array stopped, when the
 * array still starts with the same message objects (see transcript-prefix); any other
 * transcript (a copy, a compacted or rewritten one) is read from its first message.
 * Each result is thus read about once, and each turn's reading is O(new messages).
 *
 * A compacted transcript starts from what its first message recalls (summary lines,
 * pinned results), and nothing else of the replaced part.
 */
export function readTranscript(messages: readonly MessageParam[], steps: readonly PlanStep[]): TranscriptState {
  const length = messages.length;
  const known = progress.lookup(messages);
  let state: FoldState | null = null;
  let partial: FoldState | null = null;
  // Messages of `seen` still in place, and the first message to fold from.
  let kept = 0;
  let start = 0;
  if (known !== undefined && known.steps === steps && length >= known.seen.length) {
    const n = known.seen.length;
    const shared = sharedPrefix(known.seen, messages);
    if (shared === n) {
      kept = n;
      start = n - 1;
      state = known.full;
      partial = known.partial;
    } else if (shared === n - 1 && n >= 2) {
      kept = n - 1;
      start = n - 2;
      state = known.partial;
    }
  }
  if (state === null) {
    const first = messages[0];
    state = (first?.role === 'user' ? recalledState(first, steps) : null) ?? initialState(steps);
  }
  partial ??= state;
  let full = state;
  for (let i = Math.max(0, start); i < length; i++) {
    if (i === length - 2) partial = state;
    if (i === length - 1) full = state;
    const message = messages[i]!;
    if (message.role === 'assistant') state = foldTurn(state, message, messages[i + 1], steps);
  }
  // The entry is edited in place when resumed: it is the one being replaced.
  if (kept > 0) {
    const { seen } = known!;
    if (seen.length !== kept) seen.length = kept;
    for (let i = kept; i < length; i++) seen.push(messages[i]!);
    known!.full = full;
    known!.partial = partial;
  } else {
    progress.set(messages, { steps, seen: messages.slice(), full, partial });
  }

  const last = messages.at(-1);
  let lastUserText = '';
  if (last?.role === 'user') {
    if (typeof last.content === 'string') lastUserText = last.content;
    else for (const block of last.content) if (block.type === 'text') lastUserText += block.text;
  }
  // Spelled out: a spread of the state here cost more than the rest of the reading.
  const { calls, stepResults, stepMalformed, failuresAt, nextStep, detourRun, journaled, asked } = state;
  return { calls, stepResults, stepMalformed, failuresAt, nextStep, detourRun, journaled, asked, lastUserText };
}
