/**
 * A guard's own code threw (its `build` or one of its hooks). The loop ends the run it
 * was guarding `failed` with this as the error, so the record names the guard and the
 * sweep goes on; a guard that decides to stop returns `{ kind: 'stop' }` instead.
 */
export class GuardThrew extends Error {
  override readonly name = 'GuardThrew';
  constructor(
    readonly guard: string,
    readonly thrown: unknown,
    where = '',
  ) {
    super(`guard '${guard}' threw${where}: ${thrown instanceof Error ? thrown.message : String(thrown)}`, {
      cause: thrown,
    });
  }
}
