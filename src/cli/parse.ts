import { InvalidArgumentError } from 'commander';

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
