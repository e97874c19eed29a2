import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { stepServed } from '../../scenarios/plan-matching.js';
import type { PlanStep } from '../../scenarios/schema.js';
import type { Json } from '../../scenarios/world.js';
import { readOwnArguments } from './own-arguments.js';

/**
 * What a result says, as a reader of its words would take it. These are the cues a real
 * model reacts to; the simulated model sees nothing else of the harness.
 */
export type ResultView =
  | { readonly kind: 'good'; readonly value: Json }
  /** A well-formed answer that says it found nothing ("No results found"). */
  | { readonly kind: 'empty'; readonly text: string }
  | { readonly kind: 'malformed'; readonly text: string }
  | { readonly kind: 'error'; readonly text: string; readonly hint: 'permanent' | 'transient' | 'none'; readonly mayHaveApplied: boolean }
  | { readonly kind: 'reflection' }
  | { readonly kind: 'missing' };

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
  /** Failed calls at each step. */
  readonly failuresAt: readonly number[];
  /** The step after the furthest one the model believes done. */
  readonly nextStep: number;
  /** Detour calls at the end of the transcript, in a row. */
  readonly detourRun: number;
  /** Plain text of the last user message. */
  readonly lastUserText: string;
}

const REFLECTION_CUE = 'you just called the same tool with identical arguments';
const PERMANENT_CUE = 'do not retry with the same arguments';
const TRANSIENT_CUE = 'may succeed if retried';
const APPLIED_CUE = 'may have been applied';
const EMPTY_CUE = 'no results';

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * Readings of result blocks. A block's reading depends on that block's content alone
 * (never on the transcript around it), so remembering it changes nothing the model
 * knows: a block that compaction drops is simply not read again. It saves re-parsing
 * every earlier result on every turn.
 */
const readings = new WeakMap<ToolResultBlockParam, ResultView>();

export function viewResult(block: ToolResultBlockParam | undefined): ResultView {
  if (block === undefined) return { kind: 'missing' };
  let view = readings.get(block);
  if (view === undefined) {
    view = readResult(block);
    readings.set(block, view);
  }
  return view;
}

function readResult(block: ToolResultBlockParam): ResultView {
  const text = resultText(block);
  const lower = text.toLowerCase();
  if (lower.startsWith(REFLECTION_CUE)) return { kind: 'reflection' };
  if (block.is_error === true || lower.startsWith('error')) {
    const hint = lower.includes(PERMANENT_CUE) ? 'permanent' : lower.includes(TRANSIENT_CUE) ? 'transient' : 'none';
    return { kind: 'error', text, hint, mayHaveApplied: lower.includes(APPLIED_CUE) };
  }
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return { kind: 'malformed', text };
  }
  return lower.includes(EMPTY_CUE) ? { kind: 'empty', text } : { kind: 'good', value };
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

/** One assistant turn folded into the state: valid only from `from`, with `after` as its results. */
interface Fold {
  readonly from: FoldState;
  readonly after: MessageParam | undefined;
  readonly to: FoldState;
}

const folds = new WeakMap<MessageParam, Fold>();
const initialStates = new WeakMap<readonly PlanStep[], FoldState>();

function initialState(steps: readonly PlanStep[]): FoldState {
  let state = initialStates.get(steps);
  if (state === undefined) {
    state = { calls: [], stepResults: steps.map(() => undefined), stepMalformed: steps.map(() => undefined), failuresAt: steps.map(() => 0), nextStep: 0, detourRun: 0 };
    initialStates.set(steps, state);
  }
  return state;
}

/** One assistant turn and the results that answer it (the next message), folded into the state. */
function foldTurn(state: FoldState, assistant: MessageParam, after: MessageParam | undefined, steps: readonly PlanStep[]): FoldState {
  const results = new Map<string, ToolResultBlockParam>();
  if (after?.role === 'user' && typeof after.content !== 'string') {
    for (const block of after.content) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
  }
  const stepResults = [...state.stepResults];
  const stepMalformed = [...state.stepMalformed];
  const failuresAt = [...state.failuresAt];
  const calls = [...state.calls];
  let { nextStep, detourRun } = state;
  if (typeof assistant.content === 'string') return state;
  // In a turn of several calls, a step that failed holds the model there: a later step
  // of the same turn that worked is kept, and skipped once the model gets past the failed one.
  let held = false;
  for (const block of assistant.content) {
    if (block.type !== 'tool_use') continue;
    const { input, garbled } = readOwnArguments(block.input);
    const result = viewResult(results.get(block.id));
    let step = stepServed(steps, nextStep, block.name, input);
    let role: CallView['role'] = step === -1 ? 'detour' : 'plan';
    if (step === -1 && nextStep < steps.length && steps[nextStep]?.verify?.tool === block.name) {
      step = nextStep;
      role = 'verify';
    }
    if (role === 'plan' && result.kind === 'good') {
      stepResults[step] = result.value;
      if (!held) nextStep = step + 1;
    } else if (role === 'verify' && verifiedDone(result)) {
      nextStep = step + 1;
    } else if (role === 'plan' && result.kind === 'malformed') {
      stepMalformed[step] = result.text;
    }
    if (role === 'plan' && result.kind !== 'good') held = true;
    // Only ever true after a turn of several calls: one call per turn reaches a step at nextStep.
    while (!held && nextStep < steps.length && stepResults[nextStep] !== undefined && nextStep > step) nextStep += 1;
    if (step >= 0 && (result.kind === 'error' || result.kind === 'reflection' || result.kind === 'malformed' || result.kind === 'empty')) {
      failuresAt[step] = (failuresAt[step] ?? 0) + 1;
    }
    detourRun = role === 'detour' ? detourRun + 1 : 0;
    calls.push({ name: block.name, input, step, role, result, garbled });
  }
  return { calls, stepResults, stepMalformed, failuresAt, nextStep, detourRun };
}

/**
 * Read the model's progress from the transcript it was sent: a fold over its assistant
 * turns, each with the results that answer it. Pure: the same messages give the same
 * state, so a result that compaction removed is a result the model lacks.
 *
 * Folds are remembered per assistant message together with the exact state they
 * started from and the results message they read. A fold is reused only when the walk
 * reaches that message from the identical state object and the same next message, which
 * (by induction from the shared initial state) means the whole transcript before it is
 * the same sequence of objects. A changed, dropped or reordered message breaks the chain
 * and everything after it is read again. This keeps each turn's reading O(new messages)
 * instead of O(transcript).
 */
export function readTranscript(messages: readonly MessageParam[], steps: readonly PlanStep[]): TranscriptState {
  let state = initialState(steps);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const after = messages[i + 1];
    const fold = folds.get(message);
    if (fold !== undefined && fold.from === state && fold.after === after) {
      state = fold.to;
      continue;
    }
    const to = foldTurn(state, message, after, steps);
    folds.set(message, { from: state, after, to });
    state = to;
  }

  const last = messages.at(-1);
  let lastUserText = '';
  if (last?.role === 'user') {
    if (typeof last.content === 'string') lastUserText = last.content;
    else for (const block of last.content) if (block.type === 'text') lastUserText += block.text;
  }
  return { ...state, lastUserText };
}
