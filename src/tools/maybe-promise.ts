/**
 * A value now, or a promise of it later: what a tool port returns. Synchronous tools
 * (every built-in scenario tool) answer with the value itself, so the simulated benchmark
 * creates no promise and awaits nothing; only a layer that met a promise goes
 * asynchronous. Layers test for a promise with `instanceof Promise` (an async function's
 * result always is one) and pass a value on as a value: a helper taking a callback would
 * cost a closure per call on the synchronous path.
 *
 * @example
 * const execute = (name: string, input: Record<string, unknown>): MaybePromise<ToolExecution> =>
 *   name === 'get_user' ? lookUp(input) : callService(name, input); // a value, or a promise of one
 */
export type MaybePromise<T> = T | Promise<T>;
