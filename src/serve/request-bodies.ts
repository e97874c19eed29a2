import type { IncomingMessage } from 'node:http';
import { ServeRefusal } from './serve-refusal.js';

export interface RequestBodyLimits {
  /** The largest body taken: a conversation, not a file upload. @default 16 MiB */
  readonly maxBytes?: number;
  /** Bytes of bodies held at once, across requests; a read that would pass it waits. @default 64 MiB */
  readonly budgetBytes?: number;
}

const MiB = 1024 * 1024;

/**
 * Reads request bodies within a memory budget. A body announced larger than `maxBytes` is
 * refused (413) before a byte of it is read; one that grows past it is cut off. Each read
 * reserves its announced size (or `maxBytes`, when it announces none) from the budget
 * before it starts, and waits while the reservation does not fit, so a crowd of large or
 * slow uploads holds at most the budget in memory, while an agent's small requests, which
 * fit beside them, are not held up.
 *
 * @example
 * const bodies = new RequestBodies();
 * const text = await bodies.read(request);
 */
export class RequestBodies {
  readonly maxBytes: number;
  readonly #budget: number;
  #reserved = 0;
  readonly #waiting: Array<{ readonly bytes: number; readonly admit: () => void }> = [];

  constructor(limits: RequestBodyLimits = {}) {
    this.maxBytes = limits.maxBytes ?? 16 * MiB;
    this.#budget = Math.max(limits.budgetBytes ?? 64 * MiB, this.maxBytes);
  }

  /** Bytes reserved by the reads in progress. */
  get reserved(): number {
    return this.#reserved;
  }

  /** Reads waiting for room in the budget. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The body as UTF-8 text; a refusal (413) for one over the cap. */
  async read(request: IncomingMessage): Promise<string> {
    const announced = announcedLength(request);
    if (announced !== undefined && announced > this.maxBytes) throw this.#tooLarge();
    const bytes = announced ?? this.maxBytes;
    await this.#reserve(bytes);
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of request) {
        size += (chunk as Buffer).length;
        if (size > this.maxBytes) throw this.#tooLarge();
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    } finally {
      this.#release(bytes);
    }
  }

  #tooLarge(): ServeRefusal {
    return new ServeRefusal(413, 'request_too_large', `the request body is over ${this.maxBytes} bytes`);
  }

  #reserve(bytes: number): Promise<void> {
    if (this.#reserved + bytes <= this.#budget) {
      this.#reserved += bytes;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiting.push({ bytes, admit: resolve });
    });
  }

  #release(bytes: number): void {
    this.#reserved -= bytes;
    // Whoever fits now goes, in arrival order; a large read may wait behind small ones.
    for (let i = 0; i < this.#waiting.length; ) {
      const next = this.#waiting[i]!;
      if (this.#reserved + next.bytes > this.#budget) {
        i += 1;
        continue;
      }
      this.#waiting.splice(i, 1);
      this.#reserved += next.bytes;
      next.admit();
    }
  }
}

/** The Content-Length a request announced, if it announced one. */
function announcedLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}
