import { Piscina } from 'piscina';
import type { ChunkResult, ChunkTask } from './chunk-runner.js';
import type { SweepDefinition, SweepPlan } from './sweep-plan.js';
import type { PoolData } from './worker.js';
import { crossedError } from './worker-errors.js';

/**
 * Chunks from `first` on, on a worker pool that gets `data` once, handed to `accept` in
 * index order with a bounded backlog. Once `stopped` says so no new chunk starts; those
 * in flight finish, and the ones that can still be accepted in order are.
 */
export async function runPooled(
  definition: SweepDefinition,
  data: PoolData,
  plan: SweepPlan,
  first: number,
  workers: number,
  accept: (result: ChunkResult) => void,
  stopped: () => boolean,
): Promise<void> {
  const pool = new Piscina<ChunkTask, ChunkResult>({
    filename: new URL('./worker.js', import.meta.url).href,
    workerData: data,
    minThreads: workers,
    maxThreads: workers,
  });
  const waiting = new Map<number, ChunkResult>();
  let next = first;
  let submitted = first;
  const inFlight = new Set<Promise<void>>();
  try {
    while (next < plan.chunkCount && (inFlight.size > 0 || !stopped())) {
      // Keep a few chunks per worker queued; more would only hold finished output in memory.
      while (!stopped() && submitted < plan.chunkCount && submitted - next < workers * 4) {
        const task = pool.run({ definition, chunk: plan.chunk(submitted) }).then(
          (result) => {
            waiting.set(result.index, result);
            inFlight.delete(task);
          },
          (error: unknown) => {
            throw crossedError(error);
          },
        );
        inFlight.add(task);
        submitted += 1;
      }
      if (inFlight.size === 0) break; // stopped before anything more was started
      await Promise.race(inFlight);
      for (let result = waiting.get(next); result !== undefined; result = waiting.get(next)) {
        waiting.delete(next);
        accept(result);
        next += 1;
      }
    }
  } finally {
    await pool.destroy();
  }
}
