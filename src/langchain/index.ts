/**
 * spiralbench's safeguards as LangChain v1 middleware: `createAgent({ middleware:
 * [spiralbenchMiddleware({ guards: 'article' })] })`. The guards are the ones our own loop
 * runs (src/loop/guards/), hosted through the framework-neutral guard session
 * (src/middleware/); this entry adds only LangChain's hooks. langchain and @langchain/core
 * are optional peer dependencies: only this entry needs them. See docs/langchain-middleware.md.
 *
 * @example
 * import { createAgent } from 'langchain';
 * import { spiralbenchMiddleware } from 'spiralbench/langchain';
 *
 * const agent = createAgent({ model, tools, middleware: [spiralbenchMiddleware({ guards: 'article' })] });
 * const state = await agent.invoke({ messages: [{ role: 'user', content: 'Fetch user u_1042 ...' }] });
 * state.spiralbench; // how the run ended: completed, budget_exhausted, escalated (with the payload), ...
 *
 * @packageDocumentation
 */
export {
  spiralbenchMiddleware,
  type SpiralbenchMiddlewareOptions,
  type SpiralbenchOutcome,
} from './spiralbench-middleware.js';
export type { GuardChoice, SessionClock, SessionPreset } from '../middleware/index.js';
