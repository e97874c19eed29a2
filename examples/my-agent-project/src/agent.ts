import {
  BudgetedAgentLoop,
  errorClassification,
  type ModelClient,
  type RunResult,
  repeatFingerprint,
  stuckTool,
  type ToolHost,
  toolBudget,
} from 'spiralbench';
import { writeOnce } from './write-once.js';

/** Our production agent: spiralbench's loop with the article's safeguards and our own. */
export function runProfileAgent(model: ModelClient, tools: ToolHost, customerId: string): Promise<RunResult> {
  const loop = new BudgetedAgentLoop({
    model,
    tools,
    system: 'You export customer profiles. Read before you write, and write each profile once.',
    guards: [
      stuckTool(),
      toolBudget({ maxToolCalls: 10 }),
      repeatFingerprint(),
      errorClassification({ maxRetries: 3, backoffMs: [1000, 2000, 4000] }),
      writeOnce('save_profile'),
    ],
  });
  return loop.run(`Export the profile of customer ${customerId}.`);
}
