import type { Arm } from '../arms/arms.js';
import { configChangeProblem } from '../faults/config-change.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { CHEAP_MODEL_ID } from '../model/model-table.js';
import type { Scenario } from '../scenarios/loader.js';
import type { InputProblem } from '../user-input-error.js';

/**
 * The scenarios whose `model_faults.config_change` names a model the run asks for itself:
 * the configured one (`modelId`, or the default), or the cheap model recovery falls back to
 * and compaction summarises with. The endpoint would refuse those calls from the first.
 */
export function configChangeProblems(
  scenarios: ReadonlyArray<{ readonly scenario: Scenario; readonly path: string }>,
  modelId: string | undefined,
): InputProblem[] {
  const inUse = [modelId ?? DEFAULT_MODEL_ID, CHEAP_MODEL_ID];
  return scenarios.flatMap(({ scenario, path }) => {
    const change = scenario.modelFaults.configChange;
    const expected = change === null ? undefined : configChangeProblem(change, inUse);
    return expected === undefined ? [] : [{ source: path, field: 'model_faults.config_change.model', expected }];
  });
}

/**
 * What a sweep's results will not show unless said: a configuration change mid-run reaches
 * only our loop, which reads its configuration before every call; an agent or a framework
 * reads its model id once, so its arms never meet the fault their scenario names.
 */
export function configChangeNotes(arms: readonly Arm[], scenarios: readonly Scenario[]): string[] {
  const foreign = arms.filter((arm) => arm.peer !== undefined || arm.agent !== undefined).map((arm) => arm.name);
  const changing = scenarios
    .filter((scenario) => scenario.modelFaults.configChange !== null)
    .map((scenario) => scenario.id);
  if (foreign.length === 0 || changing.length === 0) return [];
  return [
    `note: ${changing.join(', ')} change${changing.length === 1 ? 's' : ''} the configuration mid-run (model_faults.config_change), which only spiralbench's own loop reads; ${foreign.join(', ')} read their model id once and do not meet it`,
  ];
}
