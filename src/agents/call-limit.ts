/**
 * The most model calls, and the most tool calls, one agent run may make. Our own loop stops
 * at 250 iterations; an agent's loop is its own, and one that never ends (a stop reason
 * misspelled, an error retried forever) would hold its sweep, and Ctrl-C with it, for good.
 */
export const AGENT_CALL_LIMIT = 1000;

/** Model calls between two turns of the event loop (a run of a few dozen calls never waits). */
const YIELD_EVERY = 64;

/** An agent run stopped by the harness at AGENT_CALL_LIMIT calls of one kind. */
export class AgentCallLimitReached extends Error {
  override readonly name = 'AgentCallLimitReached';
  constructor(kind: 'model' | 'tool') {
    super(
      `the agent made ${AGENT_CALL_LIMIT} ${kind} calls, the most one run may make, and was stopped there: its loop does not end (check how it decides to stop)`,
    );
  }
}

/**
 * Counts one agent run's calls. The call past the limit never settles: the agent's loop is
 * parked there, `reached` rejects so the run ends with the reason, and `signal` aborts for
 * an agent that listens to it. Deterministic: the same run stops at the same call.
 */
export class CallLimit {
  readonly #controller = new AbortController();
  readonly reached: Promise<never>;
  #fail: (error: AgentCallLimitReached) => void = () => {};
  #model = 0;
  #tool = 0;

  constructor() {
    this.reached = new Promise<never>((_, reject) => {
      this.#fail = reject;
    });
    // Nobody may await it: a run that ends before the limit leaves it pending, never rejected.
    this.reached.catch(() => {});
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `call` for one more call of `kind`, or a promise that never settles past the limit. */
  through<T>(kind: 'model' | 'tool', call: () => Promise<T>): Promise<T> {
    const made = kind === 'model' ? (this.#model += 1) : (this.#tool += 1);
    // A long run is all microtasks: now and then the event loop gets a turn, so a Ctrl-C is
    // heard. Model calls only: a reply depends on its request alone, where a tool call draws
    // its faults when it is made, in the order calls are made.
    if (kind === 'model' && made <= AGENT_CALL_LIMIT && made % YIELD_EVERY === 0)
      return new Promise(setImmediate).then(call);
    if (made <= AGENT_CALL_LIMIT) return call();
    if (!this.#controller.signal.aborted) {
      const error = new AgentCallLimitReached(kind);
      this.#controller.abort(error);
      this.#fail(error);
    }
    return new Promise<T>(() => {});
  }
}
