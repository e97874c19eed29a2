import type { AgentEvent } from '../loop/events.js';
import { argumentsMatch } from '../scenarios/plan-matching.js';
import type { Scenario } from '../scenarios/loader.js';
import type { PlanStep } from '../scenarios/schema.js';
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
  readonly #readSteps: ReadonlyMap<string, readonly PlanStep[]>;
  /**
   * Plan-step reads called and not yet answered: at most the calls of one turn, most often
   * none or one, so a short list searched by id costs less than a Map's hashing.
   */
  readonly #pending: Array<{ readonly id: string; readonly fingerprint: string }> = [];
  /**
   * The calls that had a good result, distinct. A list, not a Set: each call's text is
   * new, and hashing a long one (a whole record) costs more than comparing it with the
   * few a run holds, most of them of another length.
   */
  readonly #fetched: string[] = [];

  constructor(scenario: Scenario) {
    this.#readSteps = readStepsOf(scenario);
  }

  observe(event: AgentEvent): void {
    if (event.type === 'agent.tool.call') {
      const input =
        typeof event.input === 'object' && event.input !== null ? (event.input as Record<string, unknown>) : {};
      if (!this.#readsPlanStep(event.tool, input)) return;
      const fingerprint = `${event.tool} ${canonicalJson(input)}`;
      if (this.#fetched.includes(fingerprint)) this.count += 1;
      this.#pending.push({ id: event.id, fingerprint });
    } else if (event.type === 'agent.tool.result') {
      // The first pending call with the id, found with a loop rather than findIndex and an arrow per result.
      let at = 0;
      while (at < this.#pending.length && this.#pending[at]!.id !== event.id) at++;
      if (at === this.#pending.length) return;
      const { fingerprint } = this.#pending[at]!;
      // Their order does not matter: the last takes the answered one's place.
      this.#pending[at] = this.#pending.at(-1)!;
      this.#pending.pop();
      if (!event.isError && tryParseJson(event.content).ok && !this.#fetched.includes(fingerprint))
        this.#fetched.push(fingerprint);
    }
  }

  #readsPlanStep(tool: string, input: Record<string, unknown>): boolean {
    // A loop, not some() with an arrow: no closure for every call.
    for (const step of this.#readSteps.get(tool) ?? NO_STEPS) if (argumentsMatch(step, input)) return true;
    return false;
  }
}

const NO_STEPS: readonly PlanStep[] = [];

/** Per scenario, made once: the plan's steps by tool, for the tools that have no side effects. */
const readStepsByScenario = new WeakMap<Scenario, ReadonlyMap<string, readonly PlanStep[]>>();

function readStepsOf(scenario: Scenario): ReadonlyMap<string, readonly PlanStep[]> {
  let known = readStepsByScenario.get(scenario);
  if (known === undefined) {
    const writers = new Set(scenario.tools.filter((spec) => spec.sideEffecting).map((spec) => spec.definition.name));
    const steps = new Map<string, PlanStep[]>();
    for (const step of scenario.plan.steps) {
      if (writers.has(step.tool)) continue;
      const forTool = steps.get(step.tool);
      if (forTool === undefined) steps.set(step.tool, [step]);
      else forTool.push(step);
    }
    known = steps;
    readStepsByScenario.set(scenario, known);
  }
  return known;
}
