import type * as Provider from '@ai-sdk/provider';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LanguageModelV3, LanguageModelV3GenerateResult } from './ai-sdk-types.js';

describe('the AI SDK types read through ai', () => {
  it('are the provider types themselves, so the declarations need no @ai-sdk/provider', () => {
    expectTypeOf<LanguageModelV3>().toEqualTypeOf<Provider.LanguageModelV3>();
    expectTypeOf<LanguageModelV3GenerateResult>().toEqualTypeOf<Provider.LanguageModelV3GenerateResult>();
    expect(true).toBe(true);
  });
});
