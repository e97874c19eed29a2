import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { canonicalJson } from '../../scenarios/canonical-json.js';
import type { Json } from '../../tools/world.js';
import type { ModelRequest } from '../model-client.js';
import { factsOf, formatSummary, readRecollection, type RecalledCall } from './summary-text.js';
import { refusalIn } from './result-view.js';
import { asksForSummary } from './vocabulary.js';

/** Longest task statement a summary repeats. */
const TASK_CHARS = 600;
/** Longest error wording a summary repeats. */
const ERROR_CHARS = 120;
/** Notes kept with the run-journal tools; the journal itself is shown after a summary, not summarised. */
const JOURNAL_TOOLS: ReadonlySet<string> = new Set([
  'get_run_journal',
  'update_run_journal',
  'append_run_journal_entry',
]);

function textOf(message: MessageParam | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const block of message.content) if (block.type === 'text') text += (text === '' ? '' : '\n') + block.text;
  return text;
}

function resultText(block: ToolResultBlockParam): string {
  const { content } = block;
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Whether the request asks for a summary of the conversation it carries. */
export function isSummaryRequest(request: ModelRequest): boolean {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return false;
  // Most requests end with tool results alone: no words to ask for anything.
  const text = textOf(last);
  return asksForSummary(text);
}

/** How a summary tells of one call and its result; null for a call that was never run (a refused repeat, a call past the budget). */
function recall(name: string, input: Record<string, unknown>, text: string, isError: boolean): RecalledCall | null {
  if (refusalIn(text) !== null) return null;
  if (isError || /^error/i.test(text))
    return { kind: 'failed', name, input, error: text.split('\n')[0]!.slice(0, ERROR_CHARS) };
  try {
    return { kind: 'succeeded', name, input, facts: factsOf(JSON.parse(text) as Json) };
  } catch {
    return { kind: 'failed', name, input, error: 'the result was unreadable (cut-off or malformed data)' };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A deterministic summary of the conversation in a summarisation request, holding only
 * what that request contains: the task as first stated, and for each distinct tool call
 * (tool and arguments) its latest outcome with the short facts of its result (long values
 * such as document bodies are left out). A summary or pinned results at the start are carried over. The
 * API's output limit then cuts the text where it cuts any reply, so a long summary loses
 * its latest lines first.
 *
 * @example
 * summaryText(request) // 'Summary of the earlier conversation (covers 7 turns).\nTask: ...\n- read_source {...} succeeded: {...}'
 */
export function summaryText(request: ModelRequest): string {
  const { messages } = request;
  const calls: RecalledCall[] = [];
  let turns = 0;
  let task: string | null = null;
  const first = messages[0];
  const firstText = textOf(first);
  const earlier = first === undefined ? null : readRecollection(firstText, first);
  if (earlier !== null) {
    turns += earlier.coveredTurns;
    task = earlier.task;
    calls.push(...earlier.calls);
    // A pinned result is a result the summary was given: its facts are carried like any other.
    for (const pin of earlier.pinned) {
      const recalled = recall(pin.name, pin.input, pin.text, false);
      if (recalled !== null) calls.push(recalled);
    }
  } else if (firstText !== '' && !asksForSummary(firstText)) {
    task = firstText.replace(/\s+/g, ' ').trim().slice(0, TASK_CHARS);
  }
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    turns += 1;
    const after = messages[i + 1];
    const results = new Map<string, ToolResultBlockParam>();
    if (after?.role === 'user' && typeof after.content !== 'string')
      for (const block of after.content) if (block.type === 'tool_result') results.set(block.tool_use_id, block);
    for (const block of message.content) {
      if (block.type !== 'tool_use' || JOURNAL_TOOLS.has(block.name)) continue;
      const result = results.get(block.id);
      if (result === undefined) continue;
      const recalled = recall(
        block.name,
        isRecord(block.input) ? block.input : {},
        resultText(result),
        result.is_error === true,
      );
      if (recalled !== null) calls.push(recalled);
    }
  }
  return formatSummary(turns, task, latestOutcomes(calls));
}

/** One line per distinct call (tool and arguments), with its latest outcome, in the order of those outcomes. */
function latestOutcomes(calls: readonly RecalledCall[]): RecalledCall[] {
  const latest = new Map<string, RecalledCall>();
  for (const call of calls) {
    const key = `${call.name} ${canonicalJson(call.input as Json)}`;
    latest.delete(key);
    latest.set(key, call);
  }
  return [...latest.values()];
}
