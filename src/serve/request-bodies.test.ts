import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RequestBodies } from './request-bodies.js';
import { ServeRefusal } from './serve-refusal.js';

/** A request whose body arrives when the test writes it. */
function upload(contentLength?: number): PassThrough & IncomingMessage {
  const stream = new PassThrough() as PassThrough & IncomingMessage;
  Object.assign(stream, { headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } });
  return stream;
}

describe('RequestBodies', () => {
  it('refuses a body announced over the cap before reading it, and one that grows past it', async () => {
    const bodies = new RequestBodies({ maxBytes: 10, budgetBytes: 100 });
    await expect(bodies.read(upload(11))).rejects.toMatchObject({ status: 413 });
    const chunked = upload();
    const reading = bodies.read(chunked);
    chunked.end('0123456789ab');
    await expect(reading).rejects.toBeInstanceOf(ServeRefusal);
    expect(bodies.reserved).toBe(0);
  });

  it('holds a read that does not fit the budget until one ends, while small ones pass beside', async () => {
    const bodies = new RequestBodies({ maxBytes: 60, budgetBytes: 100 });
    const first = upload(60);
    const firstRead = bodies.read(first);
    const second = upload(60);
    const secondRead = bodies.read(second);
    await Promise.resolve();
    expect(bodies.waiting).toBe(1);
    const small = upload(20);
    const smallRead = bodies.read(small);
    small.end('{"small":"request"}.');
    expect(await smallRead).toBe('{"small":"request"}.');
    second.end('second');
    first.end('first');
    expect(await firstRead).toBe('first');
    expect(await secondRead).toBe('second');
    expect(bodies.reserved).toBe(0);
    expect(bodies.waiting).toBe(0);
  });
});
