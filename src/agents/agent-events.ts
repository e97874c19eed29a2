import type { AgentEvent } from '../loop/events.js';
import { isCountedEvent, zeroEventCounts } from '../run/run-record.js';

/**
 * The events an agent tells the harness about (`AgentContext.emit`: the guard events of a
 * framework hosting our guards), counted into the record as our loop's are: the record's
 * `events`, and `tool_retries` from the retries among them. An agent that emits nothing
 * keeps its record's zeros.
 */
export class AgentEventTally {
  readonly events = zeroEventCounts();
  toolRetries = 0;
  readonly #onEvent: ((event: AgentEvent) => void) | undefined;

  constructor(onEvent?: (event: AgentEvent) => void) {
    this.#onEvent = onEvent;
  }

  readonly emit = (event: AgentEvent): void => {
    if (event.type === 'agent.tool.retry') this.toolRetries += 1;
    if (isCountedEvent(event.type)) this.events[event.type] += 1;
    this.#onEvent?.(event);
  };
}
