import type { AgentEvent } from '../loop/events.js';
import type { CountedEvent } from '../results/counted-events.js';
import { isCountedEvent, zeroEventCounts } from './record-counts.js';

/**
 * Counts a run's events into its record: the guard events into `events`, the tool retries
 * among them into `toolRetries`; every event is passed on.
 */
export class EventTally {
  readonly events: Record<CountedEvent, number>;
  toolRetries = 0;
  readonly #onEvent: ((event: AgentEvent) => void) | undefined;

  constructor(onEvent?: (event: AgentEvent) => void) {
    this.#onEvent = onEvent;
    this.events = zeroEventCounts();
  }

  readonly emit = (event: AgentEvent): void => {
    if (event.type === 'agent.tool.retry') this.toolRetries += 1;
    if (isCountedEvent(event.type)) this.events[event.type] += 1;
    this.#onEvent?.(event);
  };
}
