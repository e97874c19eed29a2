import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import {
  DEFAULT_MODULE_LOAD_TIMEOUT_S,
  importUserModule,
  moduleLoadTimeoutSeconds,
  pickExport,
} from './import-user-module.js';

const dir = mkdtempSync(join(tmpdir(), 'user-module-'));
const isNumber = (value: unknown): value is number => typeof value === 'number';

describe('importUserModule', () => {
  it('imports a TypeScript module without a build step, and a JavaScript one as it is', async () => {
    writeFileSync(join(dir, 'typed.ts'), 'const answer: number = 42;\nexport default answer;\n');
    writeFileSync(join(dir, 'plain.mjs'), 'export const seven = 7;\n');
    expect((await importUserModule(join(dir, 'typed.ts'), '--agent'))['default']).toBe(42);
    expect((await importUserModule(join(dir, 'plain.mjs'), '--agent'))['seven']).toBe(7);
  });

  it('names the flag and the file when the module is missing or does not load', async () => {
    await expect(importUserModule(join(dir, 'missing.ts'), '--agent')).rejects.toThrow(
      /--agent: a module file that exists; '.*missing\.ts' does not/,
    );
    writeFileSync(join(dir, 'broken.ts'), 'export const = ;\n');
    const failure = importUserModule(join(dir, 'broken.ts'), 'arms.yaml', 'arms.0.agent');
    await expect(failure).rejects.toBeInstanceOf(UserInputError);
    await expect(failure).rejects.toThrow(/arms\.yaml: arms\.0\.agent: a module that loads; '.*broken\.ts' failed/);
    // Where the syntax error is, not only that the transform failed.
    await expect(failure).rejects.toThrow(/broken\.ts:1:\d+: ERROR/);
  });
});

describe('moduleLoadTimeoutSeconds', () => {
  it('reads SPIRALBENCH_MODULE_LOAD_TIMEOUT in seconds, 120 when unset, and refuses what is not a positive number', () => {
    expect(moduleLoadTimeoutSeconds({})).toBe(DEFAULT_MODULE_LOAD_TIMEOUT_S);
    expect(DEFAULT_MODULE_LOAD_TIMEOUT_S).toBe(120);
    expect(moduleLoadTimeoutSeconds({ SPIRALBENCH_MODULE_LOAD_TIMEOUT: '2.5' })).toBe(2.5);
    expect(() => moduleLoadTimeoutSeconds({ SPIRALBENCH_MODULE_LOAD_TIMEOUT: '0' })).toThrow(
      /a number of seconds above 0, got '0'/,
    );
    expect(() => moduleLoadTimeoutSeconds({ SPIRALBENCH_MODULE_LOAD_TIMEOUT: 'soon' })).toThrow(UserInputError);
  });
});

describe('pickExport', () => {
  const where = { source: '--agent', path: 'm.ts' };
  it('takes the named export, else the default, else the only one that fits', () => {
    expect(pickExport({ a: 1, b: 'x' }, isNumber, 'a number', { ...where, name: 'a' })).toBe(1);
    expect(pickExport({ default: 2, a: 1 }, isNumber, 'a number', where)).toBe(2);
    expect(pickExport({ a: 1, b: 'x' }, isNumber, 'a number', where)).toBe(1);
  });
  it('refuses none or several, saying which', () => {
    expect(() => pickExport({ b: 'x' }, isNumber, 'a number', where)).toThrow(/a number as the default export/);
    expect(() => pickExport({ a: 1, c: 3 }, isNumber, 'a number', where)).toThrow(/it exports 2/);
    expect(() => pickExport({ a: 'x' }, isNumber, 'a number', { ...where, name: 'a' })).toThrow(/exported as 'a'/);
  });
});
