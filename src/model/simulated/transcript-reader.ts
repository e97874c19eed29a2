import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { stepServed } from '../../scenarios/plan-matching.js';
import type { PlanStep } from '../../scenarios/schema.js';
import type { Json } from '../../scenarios/world.js';

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

/**
 * Read the model's progress from the transcript it was sent. Pure: the same messages
 * give the same state, so a result that compaction removed is a result the model lacks.
 */
export function readTranscript(messages: readonly MessageParam[], steps: readonly PlanStep[]): TranscriptState {
  const results = new Map<string, ToolResultBlockParam>();
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const block of message.content) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
  }

  const stepResults: (Json | undefined)[] = steps.map(() => undefined);
  const stepMalformed: (string | undefined)[] = steps.map(() => undefined);
  const failuresAt = steps.map(() => 0);
  const calls: CallView[] = [];
  let nextStep = 0;
  let detourRun = 0;

  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      const input = isRecord(block.input) ? block.input : {};
      const result = viewResult(results.get(block.id));
      let step = stepServed(steps, nextStep, block.name, input);
      let role: CallView['role'] = step === -1 ? 'detour' : 'plan';
      if (step === -1 && nextStep < steps.length && steps[nextStep]?.verify?.tool === block.name) {
        step = nextStep;
        role = 'verify';
      }
      if (role === 'plan' && result.kind === 'good') {
        stepResults[step] = result.value;
        nextStep = step + 1;
      } else if (role === 'verify' && verifiedDone(result)) {
        nextStep = step + 1;
      } else if (role === 'plan' && result.kind === 'malformed') {
        stepMalformed[step] = result.text;
      }
      if (step >= 0 && (result.kind === 'error' || result.kind === 'reflection' || result.kind === 'malformed' || result.kind === 'empty')) {
        failuresAt[step] = (failuresAt[step] ?? 0) + 1;
      }
      detourRun = role === 'detour' ? detourRun + 1 : 0;
      calls.push({ name: block.name, input, step, role, result });
    }
  }

  const last = messages.at(-1);
  let lastUserText = '';
  if (last?.role === 'user') {
    if (typeof last.content === 'string') lastUserText = last.content;
    else for (const block of last.content) if (block.type === 'text') lastUserText += block.text;
  }
  return { calls, stepResults, stepMalformed, failuresAt, nextStep, detourRun, lastUserText };
}
