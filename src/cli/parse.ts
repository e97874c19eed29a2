import { availableParallelism } from 'node:os';
import { InvalidArgumentError } from 'commander';
import { MAX_SEEDS_PER_CELL, parseShard, type Shard } from '../sweep/sweep-plan.js';

/** commander parsers: each says what it expected. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a whole number of at least 1.');
  return n;
}

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('expected a whole number of at least 0.');
  return n;
}

/** `-n`: runs per scenario and arm, bounded so that a sweep is planned and counted exactly. */
export function seedCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_SEEDS_PER_CELL)
    throw new InvalidArgumentError(
      `expected a whole number from 1 to ${MAX_SEEDS_PER_CELL} (runs per scenario and arm).`,
    );
  return n;
}

/** Worker threads a core, at most: past a few a core threads only add memory (each holds a V8 heap). */
export const WORKERS_PER_CORE = 4;

/** A `-w` parser for a machine with `cores` cores: worker threads from 1 to a few a core. */
export function workerCountFor(cores: number): (value: string) => number {
  const cap = WORKERS_PER_CORE * Math.max(1, cores);
  const here = `${cores} ${cores === 1 ? 'core' : 'cores'} here`;
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > cap)
      throw new InvalidArgumentError(
        `expected a whole number from 1 to ${cap} (${WORKERS_PER_CORE} per core, ${here}).`,
      );
    return n;
  };
}

/** `-w` on this machine. */
export const workerCount = workerCountFor(availableParallelism());

/** `--shard`: `i/n`, the i-th of n equal slices of a sweep. */
export function shardSpec(value: string): Shard {
  const shard = parseShard(value);
  if (shard === undefined) throw new InvalidArgumentError('expected i/n with whole numbers 1 <= i <= n, e.g. 2/3.');
  return shard;
}

export function commaList(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('expected a comma-separated list, e.g. none,article.');
  return items;
}

export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a number of at least 0, e.g. 2.50.');
  return n;
}
