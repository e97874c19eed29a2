import type { AgentEvent } from '../loop/events.js';
import { argumentsMatch } from '../scenarios/plan-matching.js';
import type { Scenario } from '../scenarios/loader.js';
import { canonicalJson } from '../scenarios/canonical-json.js';
import { tryParseJson } from '../scenarios/parse-json.js';

/**
 * Counts re-fetches from a run's events: calls of a read-only plan step (a tool and the
 * literal arguments of a step of the scenario's plan) identical to an earlier call that
 * returned a readable, non-error result. The model had that result; calling for it again
 * is what losing it from the context costs. Detours and retries of failed calls do not
 * count. The harness reads its own events for this; the model never sees the count.
 */
export class RefetchCounter {
  count = 0;
  readonly #scenario: Scenario;
  readonly #pending = new Map<string, string>();
  readonly #fetched = new Set<string>();

  constructor(scenario: Scenario) {
    this.#scenario = scenario;
  }

  observe(event: AgentEvent): void {
    if (event.type === 'agent.tool.call') {
      const input = typeof event.input === 'object' && event.input !== null ? (event.input as Record<string, unknown>) : {};
      if (!this.#readsPlanStep(event.tool, input)) return;
      const fingerprint = `${event.tool} ${canonicalJson(input)}`;
      if (this.#fetched.has(fingerprint)) this.count += 1;
      this.#pending.set(event.id, fingerprint);
    } else if (event.type === 'agent.tool.result') {
      const fingerprint = this.#pending.get(event.id);
      if (fingerprint === undefined) return;
      this.#pending.delete(event.id);
      if (!event.isError && tryParseJson(event.content).ok) this.#fetched.add(fingerprint);
    }
  }

  #readsPlanStep(tool: string, input: Record<string, unknown>): boolean {
    if (this.#scenario.tools.some((spec) => spec.definition.name === tool && spec.sideEffecting)) return false;
    return this.#scenario.plan.steps.some((step) => step.tool === tool && argumentsMatch(step, input));
  }
}
