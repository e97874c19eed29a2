/** Seeds per block: a block is 16 KB, allocated once a seed in it is seen. */
const BLOCK = 4096;

/**
 * Where each seed of one cell was read: its line in runs.jsonl. A seed seen twice is a run
 * recorded twice (and, with the counts checked, another run missing), which every figure
 * read from the file would count twice. Kept in blocks of neighbouring seeds, allocated as
 * seeds are seen, so memory follows the runs read, not the sweep's seed range (a shard of
 * a billion-seed sweep holds a small part of it).
 */
export class SeedLines {
  readonly #blocks = new Map<number, Uint32Array>();

  /** Records `seed` as read on `line` (from 1); the line it was read on before, or 0 when it is new. */
  add(seed: number, line: number): number {
    const block = Math.floor(seed / BLOCK);
    let lines = this.#blocks.get(block);
    if (lines === undefined) this.#blocks.set(block, (lines = new Uint32Array(BLOCK)));
    const at = seed - block * BLOCK;
    const earlier = lines[at]!;
    if (earlier === 0) lines[at] = line;
    return earlier;
  }
}
