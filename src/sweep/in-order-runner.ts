/**
 * Runs tasks `first`..`count - 1`, at most `limit` at once, and hands their results to
 * `accept` strictly in index order, so output written in `accept` does not depend on
 * which task finished first. Once `stopped()` is true no new task starts; those in
 * flight finish and whatever can be accepted in order is. A task that throws stops the
 * rest from starting; the ones in flight are awaited before the error is rethrown.
 *
 * @example
 * await runInOrder(chunks.length, 0, 4, (i) => runChunk(chunks[i]), write, () => signal.aborted);
 */
export async function runInOrder<T>(
  count: number,
  first: number,
  limit: number,
  run: (index: number) => Promise<T>,
  accept: (result: T, index: number) => void,
  stopped: () => boolean,
): Promise<void> {
  const finished = new Map<number, T>();
  const inFlight = new Set<Promise<void>>();
  // Finished results wait for a slow earlier one; a bounded backlog keeps that memory small.
  const backlog = limit * 4;
  let next = first;
  let started = first;
  try {
    while (next < count && (inFlight.size > 0 || !stopped())) {
      while (!stopped() && started < count && inFlight.size < limit && started - next < backlog) {
        const index = started;
        const task: Promise<void> = run(index).then(
          (result) => {
            finished.set(index, result);
            inFlight.delete(task);
          },
          (error: unknown) => {
            inFlight.delete(task);
            throw error;
          },
        );
        inFlight.add(task);
        started += 1;
      }
      if (inFlight.size === 0) break; // stopped before anything more was started
      await Promise.race(inFlight);
      for (let result = finished.get(next); finished.has(next); result = finished.get(next)) {
        finished.delete(next);
        accept(result as T, next);
        next += 1;
      }
    }
  } catch (error) {
    await Promise.allSettled(inFlight);
    throw error;
  }
}
