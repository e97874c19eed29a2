/**
 * A configuration change while a run goes on: from the `atCall`th model call (1 = the
 * first), the loop's configuration names `model`, a model the API does not know (a typo in
 * a reloaded file, a retired model). The endpoint answers it as the API would, 404
 * not_found_error; nothing else about the run changes.
 */
export interface ConfigChange {
  readonly atCall: number;
  readonly model: string;
}

/**
 * The model id a loop's configuration names, call by call: `configured` until the change,
 * the changed model from then on. Asked once per model call (LoopOptions.modelId), so one
 * per run: it counts the calls.
 *
 * @example
 * const modelId = changingModelId('claude-sonnet-5-5', { atCall: 4, model: 'claude-sonet-5-5' });
 * new BudgetedAgentLoop({ model, tools, modelId });
 */
export function changingModelId(configured: string, change: ConfigChange): () => string {
  let calls = 0;
  return () => {
    calls += 1;
    return calls >= change.atCall ? change.model : configured;
  };
}

/**
 * Why a configuration change cannot be the fault it says it is, or undefined: the model it
 * names must be one the run asks for in no other way (the configured model, a fallback, a
 * summary model), or the endpoint would refuse those calls too, from the first.
 */
export function configChangeProblem(change: ConfigChange, modelsInUse: readonly string[]): string | undefined {
  return modelsInUse.includes(change.model)
    ? `a model id the run does not otherwise use (a typo, a retired model), got '${change.model}', which it asks for itself (${modelsInUse.join(', ')})`
    : undefined;
}
