/**
 * The Tyche-i generator (Neves and Araujo, 2011) as seedrandom's `tychei` computes it
 * for an integer seed (lib/tychei.js): the same state, the same 20 discarded rounds, the
 * same outputs. Written out here because a stream is made per tool execution and per
 * model turn, and seedrandom's wrapper builds five closures around each generator;
 * streams.test.ts checks the outputs against seedrandom's own.
 */
export class TycheI {
  #a: number;
  #b: number;
  #c = 2654435769 | 0;
  #d = 1367130551;

  constructor(seed: number) {
    this.#a = (seed / 0x100000000) | 0;
    this.#b = seed | 0;
    for (let k = 0; k < 20; k++) this.#round();
  }

  /** A uniform number in [0, 1), from 32 bits. */
  next(): number {
    return (this.#round() >>> 0) / 0x100000000;
  }

  #round(): number {
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
    return (this.#a = (a - b) | 0);
  }
}
