import type { Scenario } from '../scenarios/loader.js';
import { type InputProblem, UserInputError } from '../user-input-error.js';
import { type Arm, buildGuards } from './arms.js';

/**
 * Refuses a scenario whose own tools share a name with a tool one of the arms' guards
 * offers the model (`request_human_help`, `request_more_iterations`, the journal's): the
 * API refuses two tools of one name, so every run of that arm would fail and the arm would
 * read as a safeguard that costs all success. Agent arms offer no guard tools.
 */
export function checkGuardToolNames(
  scenarios: ReadonlyArray<{ readonly scenario: Scenario; readonly path: string }>,
  arms: readonly Arm[],
): void {
  const problems: InputProblem[] = [];
  for (const { scenario, path } of scenarios) {
    const own = new Set(scenario.tools.map((tool) => tool.definition.name));
    for (const arm of arms) {
      if (arm.guards.length === 0) continue;
      const guards = buildGuards(arm, scenario, { sweepSeed: 0, scenario: scenario.id, runSeed: 0 });
      for (const guard of guards)
        for (const tool of guard.tools ?? [])
          if (own.has(tool.name))
            problems.push({
              source: path,
              field: 'tools',
              expected: `tool names other than '${tool.name}', which the ${guard.name} guard of arm '${arm.name}' offers the model (the API refuses two tools of one name)`,
            });
    }
  }
  if (problems.length > 0) throw new UserInputError(problems);
}
