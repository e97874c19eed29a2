import * as fs from 'node:fs';
import type { ResultsFs } from './results-fs.js';

/** A disk that fills after `room` bytes: writes past it store what fits, then fail with ENOSPC, as the kernel's do. */
export function fullDisk(room: number): ResultsFs {
  return fillingDisk(room).fs;
}

/** A disk that fills after `room` bytes, whose room can be set again (files deleted elsewhere, or more filling it), for a retry. */
export function fillingDisk(room: number): { readonly fs: ResultsFs; setRoom(bytes: number): void } {
  let left = room;
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  return {
    fs: {
      ...fs,
      writeSync: ((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset);
        const offset = typeof data === 'string' ? 0 : ((rest[0] as number | undefined) ?? 0);
        const length =
          typeof data === 'string' ? bytes.length : ((rest[1] as number | undefined) ?? bytes.length - offset);
        if (length <= left) {
          left -= length;
          return fs.writeSync(fd, bytes, offset, length);
        }
        if (left > 0) fs.writeSync(fd, bytes, offset, left);
        left = 0;
        throw enospc();
      }) as ResultsFs['writeSync'],
    },
    setRoom: (bytes) => {
      left = bytes;
    },
  };
}
