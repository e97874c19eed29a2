import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../loop/events.js';
import type { World } from '../tools/world.js';
import { escapeControl } from './terminal-text.js';

export interface TranscriptInput {
  readonly header: readonly string[];
  readonly events: readonly AgentEvent[];
  readonly messages: readonly MessageParam[];
  readonly footer: readonly string[];
  readonly world: World;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(7)}s`;
const oneLine = (text: string, max = 160) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function assistantText(message: MessageParam | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  // Only the text blocks: a turn of several tool results and no words has nothing injected.
  return (message.content as ContentBlockParam[])
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ');
}

function injectedText(message: MessageParam | undefined): string {
  if (message === undefined || message.role !== 'user' || typeof message.content === 'string') return '';
  // Only the text blocks: a turn of several tool results and no words has nothing injected.
  return (message.content as ContentBlockParam[])
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ');
}

/**
 * A run's whole story as text: each model call with what the model said, each tool
 * call with its injected faults, retries and result, guard events, and the verdict.
 * Built only from the run's events and messages, so a replay prints the same bytes.
 */
export function renderTranscript(input: TranscriptInput): string {
  const lines = [...input.header, ''];
  const assistants = input.messages.filter((message) => message.role === 'assistant');
  const users = input.messages.filter((message) => message.role === 'user');
  lines.push(`  prompt: ${oneLine(assistantText(users[0]), 400)}`);
  let turn = 0;
  for (const event of input.events) {
    const at = seconds(event.at);
    switch (event.type) {
      case 'agent.model.call': {
        const injected = injectedText(users[turn]);
        if (turn > 0 && injected !== '') lines.push(`${at}  [injected] ${oneLine(injected)}`);
        lines.push(
          `${at}  model call ${event.iteration} (${event.inputTokens} in / ${event.outputTokens} out): ${oneLine(assistantText(assistants[turn]))}`,
        );
        turn += 1;
        break;
      }
      case 'agent.tool.call':
        lines.push(`${at}    → ${event.tool} ${oneLine(JSON.stringify(event.input), 200)}`);
        break;
      case 'agent.tool.fault':
        lines.push(`${at}      ! injected fault: ${event.fault}`);
        break;
      case 'agent.tool.retry':
        lines.push(`${at}      ↻ retry ${event.attempt} after ${event.code}, waiting ${event.delayMs} ms`);
        break;
      case 'agent.tool.result':
        lines.push(`${at}    ← ${event.isError ? 'error' : 'ok'}: ${oneLine(event.content)}`);
        break;
      case 'agent.repeat.blocked':
        lines.push(`${at}    ✋ repeat blocked: ${event.tool} (${event.fingerprint.slice(0, 12)})`);
        break;
      case 'agent.budget.exhausted':
        lines.push(`${at}  ⛔ tool budget exhausted: ${event.toolCalls} of ${event.limit} calls`);
        break;
      case 'agent.guardrail.escalated':
        lines.push(`${at}  🙋 escalated to a human: ${oneLine(JSON.stringify(event.payload), 300)}`);
        break;
      case 'agent_run.started':
      case 'agent_run.completed':
        lines.push(`${at}  ${event.type}${event.type === 'agent_run.completed' ? ` (${event.outcome})` : ''}`);
        break;
      default: {
        // Model retries, loop detection, argument reading, ...: the event's own fields.
        const { type, at: _at, ...fields } = event;
        lines.push(`${at}  · ${type} ${oneLine(JSON.stringify(fields), 300)}`);
      }
    }
  }
  // An agent's model calls are not our loop's events: what it said is read off the wire,
  // the conversation as the model last saw it, after the tool calls above.
  if (!input.events.some((event) => event.type === 'agent.model.call') && assistants.length > 0) {
    lines.push('', `  the agent's conversation, as the model last saw it (${assistants.length} replies):`);
    for (const message of assistants) {
      const calls =
        typeof message.content === 'string'
          ? []
          : message.content.flatMap((block) => (block.type === 'tool_use' ? [block.name] : []));
      lines.push(`    model: ${oneLine(assistantText(message))}${calls.length === 0 ? '' : ` → ${calls.join(', ')}`}`);
    }
  }
  lines.push('', `  world outbox (${input.world.outbox.length} write(s)):`);
  for (const entry of input.world.outbox) lines.push(`    ${entry.key} = ${JSON.stringify(entry.value)}`);
  lines.push('', ...input.footer);
  // Prompts, records and replies are scenario and model text: shown, never obeyed by the terminal.
  return escapeControl(`${lines.join('\n')}\n`, { newline: true, tab: true });
}
