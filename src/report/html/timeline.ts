import type { AgentEvent, AgentEventType } from '../../loop/events.js';
import { html, type SafeHtml } from './escape.js';
import { seconds, whole, words } from './format.js';
import type { TraceEvent, TraceLine } from './report-input.js';

/** Events kept at the end of a long run's saved timeline (traces.jsonl keeps the first 300 and the last 100). */
const TAIL_EVENTS = 100;

/** Longest text shown for one thing said or returned; the rest is cut with its length noted. */
const LIMITS = { assistant: 320, input: 220, result: 260, payload: 600, prompt: 2000, outbox: 300 } as const;

/** Text cut to `max` characters on one line, saying how long it was. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}… (${whole(flat.length)} chars)`;
}

const json = (value: unknown) => (value === undefined ? '' : (JSON.stringify(value) ?? ''));

/** One row of a timeline: when, what kind, and what happened. */
interface Row {
  readonly kind: string;
  readonly label: string;
  readonly body: SafeHtml | string;
  readonly indent?: boolean;
}

type Renderers = {
  readonly [K in AgentEventType]: (event: Extract<AgentEvent, { type: K }>, said: string | undefined) => Row;
};

// One renderer per event type: a new AgentEvent type fails the type check here until it has one.
const RENDERERS: Renderers = {
  'agent_run.started': () => ({ kind: 'run', label: 'start', body: 'run started' }),
  'agent.model.call': (event, said) => ({
    kind: 'model',
    label: 'model',
    body: html`call ${event.iteration} <span class="muted">· ${whole(event.inputTokens)} in / ${whole(event.outputTokens)} out</span>${said === undefined || said === '' ? '' : html` <q>${clip(said, LIMITS.assistant)}</q>`}`,
  }),
  'agent.model.retry': (event) => ({
    kind: 'retry',
    label: 'retry',
    body: html`model call failed (${event.errorClass}${event.status === null ? ', no response' : html`, HTTP ${event.status}`}): retry ${event.attempt} of ${event.model} after ${seconds(event.delayMs)}`,
  }),
  'agent.model.fallback': (event) => ({
    kind: 'guard',
    label: 'fallback',
    body: html`model calls move from ${event.from} to ${event.to}: ${event.reason}`,
  }),
  'agent.config.rolled_back': (event) => ({
    kind: 'guard',
    label: 'rollback',
    body: html`configuration ${event.from} set aside (${event.reason}); calls go out with ${event.to}`,
  }),
  'agent.tool.call': (event) => ({
    kind: 'call',
    label: 'tool',
    indent: true,
    body: html`<b>${event.tool}</b> <code>${clip(json(event.input), LIMITS.input)}</code>`,
  }),
  'agent.tool.early_start': (event) => ({
    kind: 'call',
    label: 'early',
    indent: true,
    body: html`${event.tool} started as its block ended, ${seconds(event.leadMs)} before the reply did`,
  }),
  'agent.tool.fault': (event) => ({
    kind: 'fault',
    label: 'fault',
    indent: true,
    body: html`injected <b>${words(event.fault)}</b> on ${event.tool}`,
  }),
  'agent.tool.retry': (event) => ({
    kind: 'retry',
    label: 'retry',
    indent: true,
    body: html`${event.tool}: automatic retry ${event.attempt} after ${words(String(event.code))}, waited ${seconds(event.delayMs)}`,
  }),
  'agent.tool.result': (event) => ({
    kind: event.isError ? 'error' : 'ok',
    label: event.isError ? 'error' : 'result',
    indent: true,
    body: html`${event.tool}: <code>${clip(String(event.content), LIMITS.result)}</code>`,
  }),
  'agent.repeat.blocked': (event) => ({
    kind: 'guard',
    label: 'guard',
    indent: true,
    body: html`repeat blocked: ${event.tool} with the same arguments as a recent call`,
  }),
  'agent.injection.withheld': (event) => ({
    kind: 'guard',
    label: 'guard',
    indent: true,
    body: html`${event.tool}: output withheld by the injection detector`,
  }),
  'agent.trust.refused': (event) => ({
    kind: 'guard',
    label: 'guard',
    indent: true,
    body: html`${event.tool} refused: a side effect on ${event.target}, which the operator did not name, in an untrusted session`,
  }),
  'agent.contract.broken': (event) => ({
    kind: 'guard',
    label: 'guard',
    indent: true,
    body: html`${event.tool}: answer held back by its contract (${event.problem})`,
  }),
  'agent.write.verified': (event) => ({
    kind: 'guard',
    label: 'guard',
    indent: true,
    body: html`${event.tool}: read back with ${event.readBack}, ${words(event.finding)}`,
  }),
  'agent.tools.filtered': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`tool filter: not offered ${event.removed.join(', ')}`,
  }),
  'agent.budget.exhausted': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`tool budget exhausted: ${event.toolCalls} of ${event.limit} calls; tools withdrawn for a final answer`,
  }),
  'agent.guardrail.escalated': (event) => ({
    kind: 'escalate',
    label: 'escalate',
    body: html`asked a human: <code>${clip(json(event.payload), LIMITS.payload)}</code>`,
  }),
  'agent.loop.detected': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`${event.kind} thrash on ${event.tool}: tier ${event.tier} (${event.level})`,
  }),
  'agent.tool.arguments': (event) => ({
    kind: event.strategy === 'failed' ? 'error' : 'guard',
    label: 'args',
    indent: true,
    body: html`${event.tool}: arguments read by <b>${event.strategy}</b>`,
  }),
  'agent.messages.fixed': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`transcript fixed: ${event.merged} merged, ${event.droppedResults} orphan results dropped, ${event.strippedCalls} orphan calls stripped`,
  }),
  'agent.output_limit': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`reply cut by the output limit: ${event.action} (max_tokens ${whole(event.maxTokens)})`,
  }),
  'agent.iterations.extended': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`iterations extended by ${event.granted}, now ${event.limit}`,
  }),
  'agent_run.resumed': (event) => ({
    kind: 'run',
    label: 'resume',
    body: html`run resumed from its last checkpoint (${words(event.boundary)})`,
  }),
  'agent.tool.replayed': (event) => ({
    kind: 'ok',
    label: 'replay',
    indent: true,
    body: html`${event.tool}: completed before the interruption; answered from the store, not run again`,
  }),
  'agent.compaction.run': (event) => ({
    kind: 'guard',
    label: 'compact',
    body: html`${event.deep ? 'deep prune' : 'compaction'} (${event.trigger === 'too_large' ? 'after a 413' : 'over the threshold'}): ${event.beforeMessages} → ${event.afterMessages} messages, ${whole(event.beforeTokens)} → ${whole(event.afterTokens)} tokens, ${event.summary === 'model' ? html`summary by ${event.summaryModel}` : 'truncated (the summary call failed)'}, ${event.pinned} pinned`,
  }),
  'agent.recovery.fired': (event) => ({
    kind: 'guard',
    label: 'guard',
    body: html`context recovery R${event.rung} (${event.count} so far) at ${whole(event.tokens)} tokens`,
  }),
  'agent_run.cancelled': (event) => ({ kind: 'error', label: 'cancelled', body: html`run cancelled: ${event.reason}` }),
  'agent_run.failed': (event) => ({ kind: 'error', label: 'failed', body: html`run failed: ${event.reason}` }),
  'agent_run.completed': (event) => ({
    kind: 'run',
    label: 'end',
    body: html`run ended: <b>${words(String(event.outcome))}</b>`,
  }),
};

function renderEvent(event: TraceEvent, said: string | undefined): Row {
  const render = (RENDERERS as Readonly<Record<string, (event: never, said: string | undefined) => Row>>)[event.type];
  if (render !== undefined) return render(event as never, said);
  // An event this version does not know (a newer sweep's compaction, say): shown as it is.
  const { type, at: _at, ...fields } = event;
  return {
    kind: 'other',
    label: type.replace(/^agent[._]/, '').split('.')[0] ?? 'event',
    body: html`${type} <code>${clip(json(fields), LIMITS.payload)}</code>`,
  };
}

/**
 * The events of a saved timeline as rows, with what the model said beside each model call
 * (`assistant_texts` line up with agent.model.call events; when the middle of a long run
 * was left out, the tail's calls line up with the last texts) and a marker where events
 * were omitted.
 */
function timelineRows(trace: TraceLine): SafeHtml[] {
  const omittedAt = trace.events_omitted > 0 ? Math.max(0, trace.events.length - TAIL_EVENTS) : -1;
  const tailModelCalls =
    omittedAt < 0 ? 0 : trace.events.slice(omittedAt).filter((event) => event.type === 'agent.model.call').length;
  let headCall = 0;
  let tailCall = 0;
  const rows: SafeHtml[] = [];
  trace.events.forEach((event, index) => {
    if (index === omittedAt)
      rows.push(
        html`<li class="ev ev-gap"><span class="t"></span><span class="k">…</span><span class="d">${whole(trace.events_omitted)} events of the middle of this run are not saved; replay it to see them all</span></li>`,
      );
    let said: string | undefined;
    if (event.type === 'agent.model.call') {
      if (omittedAt >= 0 && index >= omittedAt)
        said = trace.assistant_texts[trace.assistant_texts.length - tailModelCalls + tailCall++];
      else said = trace.assistant_texts[headCall++];
    }
    const row = renderEvent(event, said);
    rows.push(
      html`<li class="ev ev-${row.kind}${row.indent === true ? ' in' : ''}"><span class="t">${seconds(event.at)}</span><span class="k">${row.label}</span><span class="d">${row.body}</span></li>`,
    );
  });
  return rows;
}

const REASON_WORDS: Readonly<Record<string, string>> = {
  worst_tool_calls: 'most tool calls',
  failure: 'failure',
  escalated: 'escalation',
  harmful: 'harmful',
};

/** Why a run was picked, in words. */
export function reasonWords(reasons: readonly string[]): string {
  return reasons.map((reason) => REASON_WORDS[reason] ?? words(reason)).join(', ');
}

/** A shell command that wraps only before a flag, keeping each flag with its value (`--seed 128`). */
export function commandHtml(command: string): SafeHtml {
  const words = command.split(/ (?=--)/).map((word) => html`<span class="nw">${word}</span>`);
  return html`<code class="cmd">${words.flatMap((word, index) => (index === 0 ? [word] : [' ', word]))}</code>`;
}

/** A verdict as a coloured badge. */
export function verdictBadge(verdict: string): SafeHtml {
  return html`<span class="badge v-${/^[a-z_]+$/.test(verdict) ? verdict : 'other'}">${verdict}</span>`;
}

/** Why a failed run failed, from its record; nothing for a run that did not fail on an error. */
function failureLine(reason: TraceLine['record']['failure_reason']): SafeHtml | '' {
  if (reason === undefined) return '';
  const status = reason.status === null ? 'no HTTP status' : `HTTP ${reason.status}`;
  return html`<p class="failure"><b>Failed on:</b> ${reason.error_class} (${status}): ${clip(reason.message, LIMITS.payload)}</p>`;
}

/**
 * One run's drill-down: what was asked, every model call, tool call, injected fault,
 * retry and guard event on virtual time, the world's outbox, the verdict and why, and
 * the command that replays it.
 */
export function renderTimeline(trace: TraceLine, anchor: string): SafeHtml {
  const { record } = trace;
  const faults = Object.entries(record.faults).filter(([, n]) => n > 0);
  const escalation =
    record.escalation === null || record.escalation === undefined
      ? ''
      : html`<p><b>Escalation payload:</b> <code>${clip(json(record.escalation), LIMITS.payload)}</code></p>`;
  return html`<article class="run" id="${anchor}">
<header><h3>${trace.scenario} · ${trace.arm} · seed ${trace.seed}</h3>${verdictBadge(record.verdict)}<span class="muted">picked for: ${reasonWords(trace.reasons)}</span><a class="up" href="#drill-down">↑ all traced runs</a></header>
<p class="verdict"><b>Verdict: ${record.verdict}</b> — ${record.verdict_reason} <span class="muted">(loop outcome: ${words(record.outcome)})</span></p>${failureLine(record.failure_reason)}
<p class="facts">${whole(record.tool_calls)} tool calls · ${whole(record.tool_executions)} executions (${whole(record.tool_retries)} automatic retries) · ${whole(record.model_calls)} model calls · ${whole(record.input_tokens)} input / ${whole(record.output_tokens)} output tokens · ${seconds(record.virtual_ms)} virtual · ${whole(record.duplicate_side_effects)} duplicate writes · faults injected: ${faults.length === 0 ? 'none' : faults.map(([kind, n]) => `${words(kind)} ${n}`).join(', ')}</p>
<p class="replay">Reproduce: ${commandHtml(trace.replay)}</p>
<details><summary>Prompt</summary><pre>${clip(trace.prompt, LIMITS.prompt)}</pre></details>
<ol class="timeline">${timelineRows(trace)}</ol>
<p><b>World outbox</b> (${trace.outbox.length} ${trace.outbox.length === 1 ? 'write' : 'writes'})${trace.outbox.length === 0 ? '' : ':'}</p>
${trace.outbox.length === 0 ? '' : html`<ul class="outbox">${trace.outbox.map((entry) => html`<li><code>${entry.key}</code> = <code>${clip(json(entry.value), LIMITS.outbox)}</code></li>`)}</ul>`}
${escalation}
</article>`;
}
