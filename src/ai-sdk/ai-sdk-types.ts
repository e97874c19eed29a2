import type { LanguageModel, LanguageModelMiddleware } from 'ai';

/**
 * The AI SDK's provider types, read through `ai`'s own exports so that the package's
 * declarations need only `ai` (a declared peer), not `@ai-sdk/provider` (a dependency of
 * `ai` that a strict installer does not make visible to us).
 */
export type LanguageModelV3 = Extract<LanguageModel, { readonly specificationVersion: 'v3' }>;

/** What a model's `doGenerate` resolves to. */
export type LanguageModelV3GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
