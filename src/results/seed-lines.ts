/** Seeds per block: a block is 4 KB, allocated once a seed in it is seen. */
const BLOCK = 512;

/**
 * Where each seed of one cell was read: its line in runs.jsonl. A seed seen twice is a run
 * recorded twice (and, with the counts checked, another run missing), which every figure
 * read from the file would count twice. Kept in blocks of neighbouring seeds, allocated as
 * seeds are seen, so memory follows the runs read, not the sweep's seed range (a shard of
 * a billion-seed sweep holds a small part of it).
 */
export class SeedLines {
  /** Line numbers as doubles: exact for any file, where 32 bits would wrap past 4 billion lines. */
  readonly #blocks = new Map<number, Float64Array>();

  /** Records `seed` as read on `line` (from 1); the line it was read on before, or 0 when it is new. */
  add(seed: number, line: number): number {
    const block = Math.floor(seed / BLOCK);
    let lines = this.#blocks.get(block);
    if (lines === undefined) this.#blocks.set(block, (lines = new Float64Array(BLOCK)));
    const at = seed - block * BLOCK;
    const earlier = lines[at]!;
    if (earlier === 0) lines[at] = line;
    return earlier;
  }
}
