import { describe, expect, it } from 'vitest';
import { deniedPath, isDiskFull, ResultsWriteError } from './results-fs.js';

const errno = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: refused`), { code, ...(path === undefined ? {} : { path }) });

describe('deniedPath', () => {
  it('names the path the system refused, through the errors that wrap it', () => {
    expect(deniedPath(errno('EACCES', '/ro/spiralbench.lock'))).toEqual({
      path: '/ro/spiralbench.lock',
      code: 'EACCES',
    });
    expect(deniedPath(new Error('could not open', { cause: errno('EROFS', '/mnt/cd') }))).toEqual({
      path: '/mnt/cd',
      code: 'EROFS',
    });
    // A write error without the path on its cause names the file it was writing.
    expect(deniedPath(new ResultsWriteError('/ro/runs.jsonl', errno('EPERM')))).toEqual({
      path: '/ro/runs.jsonl',
      code: 'EPERM',
    });
  });

  it('is undefined for any other error, a full disk included', () => {
    expect(deniedPath(errno('ENOENT', '/nowhere'))).toBeUndefined();
    expect(deniedPath(errno('ENOSPC', '/full/runs.jsonl'))).toBeUndefined();
    expect(isDiskFull(errno('ENOSPC', '/full/runs.jsonl'))).toBe(true);
    expect(deniedPath('EACCES')).toBeUndefined();
  });
});
