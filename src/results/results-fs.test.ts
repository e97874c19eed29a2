import { describe, expect, it } from 'vitest';
import { pathProblem, isDiskFull, ResultsWriteError } from './results-fs.js';

const errno = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: refused`), { code, ...(path === undefined ? {} : { path }) });

describe('pathProblem', () => {
  it('names the path the system refused and what it should be, through the errors that wrap it', () => {
    expect(pathProblem(errno('EACCES', '/ro/spiralbench.lock'))).toEqual({
      path: '/ro/spiralbench.lock',
      code: 'EACCES',
      expected: 'a file or folder this user may write and read; the system refused it',
    });
    expect(pathProblem(new Error('could not open', { cause: errno('ENOTDIR', '/tmp/afile/sub') }))).toMatchObject({
      path: '/tmp/afile/sub',
      code: 'ENOTDIR',
      expected: 'a path whose parts are folders; one of them is a file',
    });
    // A write error without the path on its cause names the file it was writing.
    expect(pathProblem(new ResultsWriteError('/ro/runs.jsonl', errno('EPERM')))).toMatchObject({
      path: '/ro/runs.jsonl',
      code: 'EPERM',
    });
  });

  it('is undefined for any other error, a full disk included', () => {
    expect(pathProblem(errno('ENOENT', '/nowhere'))).toBeUndefined();
    expect(pathProblem(errno('ENOSPC', '/full/runs.jsonl'))).toBeUndefined();
    expect(isDiskFull(errno('ENOSPC', '/full/runs.jsonl'))).toBe(true);
    expect(pathProblem('EACCES')).toBeUndefined();
  });
});
