/**
 * The most model requests one agent run may make, and the most tool calls. Our own loop
 * stops at 250 iterations; an agent's loop is its own, and one that never ends (a stop
 * reason misspelled, an error retried forever) would hold its sweep, and Ctrl-C with it,
 * for good. Tool calls are cheap and an agent may make many a turn: their limit is higher.
 */
export const AGENT_CALL_LIMITS = Object.freeze({ model: 1000, tool: 10_000 });

/** Model requests between two turns of the event loop (a run of a few dozen requests never waits). */
const YIELD_EVERY = 64;

/** An agent run stopped by the harness at its limit of calls of one kind. */
export class AgentCallLimitReached extends Error {
  override readonly name = 'AgentCallLimitReached';
  constructor(kind: 'model' | 'tool') {
    super(
      `the agent made ${AGENT_CALL_LIMITS[kind]} ${kind === 'model' ? 'model requests' : 'tool calls'}, the most one run may make, and was stopped there: its loop does not end (check how it decides to stop)`,
    );
  }
}

/**
 * Counts one agent run's calls. Past a limit, that call and every later one of either kind
 * never settles: the agent's loop is parked, `reached` rejects so the run ends with the
 * reason, and `signal` aborts for an agent that listens to it. Deterministic: the same run
 * stops at the same call.
 */
export class CallLimit {
  readonly #controller = new AbortController();
  readonly reached: Promise<never>;
  #fail: (error: AgentCallLimitReached) => void = () => {};
  #model = 0;
  #tool = 0;
  /** The last turn given to the event loop: model requests after it wait for it, in order. */
  #turn: Promise<void> | undefined;

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

  /** `call` for one more call of `kind`, or a promise that never settles past a limit. */
  through<T>(kind: 'model' | 'tool', call: () => Promise<T>): Promise<T> {
    if (this.#controller.signal.aborted) return new Promise<T>(() => {});
    const made = kind === 'model' ? (this.#model += 1) : (this.#tool += 1);
    if (made > AGENT_CALL_LIMITS[kind]) {
      const error = new AgentCallLimitReached(kind);
      this.#controller.abort(error);
      this.#fail(error);
      return new Promise<T>(() => {});
    }
    if (kind === 'tool') return call();
    // A long run is all microtasks: now and then the event loop gets a turn, so a Ctrl-C is
    // heard. Every request after a turn waits for it, so requests still reach the model in
    // the order they were made (its fault draws and prompt cache follow that order). Tool
    // calls never wait: each draws its faults when it is made.
    if (made % YIELD_EVERY === 0) this.#turn = new Promise<void>((resolve) => setImmediate(resolve));
    return this.#turn === undefined ? call() : this.#turn.then(call);
  }
}
