/**
 * A value now, or a promise of it later: what a tool port returns. Synchronous tools (every
 * built-in scenario tool) answer with the value itself, so the simulated benchmark creates
 * no promise and awaits nothing; only a layer that met a promise goes asynchronous.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `value` given to `then`: at once when it is a value, after it settles when it is a
 * promise. A rejected promise stays rejected (the caller decides what a rejection means).
 *
 * @example
 * const report = whenSettled(host.execute(name, input), (execution) => word(execution));
 */
export function whenSettled<T, U>(value: MaybePromise<T>, then: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(then) : then(value);
}
