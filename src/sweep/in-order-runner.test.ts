import { describe, expect, it } from 'vitest';
import { runInOrder } from './in-order-runner.js';

/** Tasks that finish when the test says so, to force any completion order. */
function controlled(count: number) {
  const finish: Array<(value: string) => void> = [];
  const started: number[] = [];
  let open = 0;
  let maxOpen = 0;
  const run = (index: number) => {
    started.push(index);
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    return new Promise<string>((resolve) => {
      finish[index] = (value) => {
        open -= 1;
        resolve(value);
      };
    });
  };
  return { run, finish, started, maxOpen: () => maxOpen, count };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('runInOrder', () => {
  it('accepts results in index order whatever order they finish in, with at most `limit` running', async () => {
    const tasks = controlled(5);
    const accepted: string[] = [];
    const done = runInOrder(
      5,
      0,
      2,
      tasks.run,
      (result) => accepted.push(result),
      () => false,
    );
    await tick();
    expect(tasks.started).toEqual([0, 1]);
    tasks.finish[1]!('b');
    await tick();
    expect(accepted).toEqual([]); // 1 waits for 0
    expect(tasks.started).toEqual([0, 1, 2]);
    tasks.finish[2]!('c');
    await tick();
    tasks.finish[0]!('a');
    await tick();
    expect(accepted).toEqual(['a', 'b', 'c']);
    tasks.finish[3]!('d');
    await tick();
    tasks.finish[4]!('e');
    await done;
    expect(accepted).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(tasks.maxOpen()).toBe(2);
  });

  it('starts from `first`, and once stopped starts nothing new but accepts what was running', async () => {
    const tasks = controlled(6);
    const accepted: string[] = [];
    let stop = false;
    const done = runInOrder(
      6,
      2,
      2,
      tasks.run,
      (result) => accepted.push(result),
      () => stop,
    );
    await tick();
    stop = true;
    tasks.finish[3]!('d');
    tasks.finish[2]!('c');
    await done;
    expect(tasks.started).toEqual([2, 3]);
    expect(accepted).toEqual(['c', 'd']);
  });

  it('rethrows a failed task after the others in flight settle', async () => {
    const settled: number[] = [];
    const run = async (index: number) => {
      await tick();
      if (index === 0) throw new Error('boom');
      await tick();
      settled.push(index);
      return index;
    };
    await expect(
      runInOrder(
        4,
        0,
        3,
        run,
        () => undefined,
        () => false,
      ),
    ).rejects.toThrow('boom');
    expect(settled).toEqual([1, 2]);
  });
});
