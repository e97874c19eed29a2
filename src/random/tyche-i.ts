/**
 * The Tyche-i generator (Neves and Araujo, 2011) as seedrandom's `tychei` computes it
 * for an integer seed (lib/tychei.js): the same state, the same 20 discarded rounds, the
 * same outputs. Written out here because a stream is made per tool execution and per
 * model turn, and seedrandom's wrapper builds five closures around each generator;
 * tyche-i.test.ts checks the outputs against seedrandom's own.
 */
export class TycheI {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let a = (seed / 0x100000000) | 0;
    let b = seed | 0;
    let c = 2654435769 | 0;
    let d = 1367130551;
    // The discarded rounds run on locals, written out as in next(): twenty rounds of
    // field reads and writes were most of the cost of a stream.
    for (let k = 0; k < 20; k++) {
      b = (b << 25) ^ (b >>> 7) ^ c;
      c = (c - d) | 0;
      d = (d << 24) ^ (d >>> 8) ^ a;
      a = (a - b) | 0;
      b = (b << 20) ^ (b >>> 12) ^ c;
      c = (c - d) | 0;
      d = (d << 16) ^ (c >>> 16) ^ a;
      a = (a - b) | 0;
    }
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
  }

  /** A uniform number in [0, 1), from 32 bits of one round. */
  next(): number {
    let b = this.#b;
    let c = this.#c;
    let d = this.#d;
    let a = this.#a;
    b = (b << 25) ^ (b >>> 7) ^ c;
    c = (c - d) | 0;
    d = (d << 24) ^ (d >>> 8) ^ a;
    a = (a - b) | 0;
    this.#b = b = (b << 20) ^ (b >>> 12) ^ c;
    this.#c = c = (c - d) | 0;
    this.#d = (d << 16) ^ (c >>> 16) ^ a;
    this.#a = a = (a - b) | 0;
    return (a >>> 0) / 0x100000000;
  }
}
