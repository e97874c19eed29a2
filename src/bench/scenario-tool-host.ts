import type { FaultKind } from '../faults/fault-profile.js';
import { FlakyTool } from '../faults/flaky-tool.js';
import type { ToolHost } from '../loop/tool-host.js';
import { stream, type StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import type { World } from '../scenarios/world.js';

export interface ScenarioToolHost extends ToolHost {
  /** Faults injected so far, by kind. */
  readonly faults: Readonly<Partial<Record<FaultKind, number>>>;
}

/**
 * The scenario's tools over one world, each behind a flaky wrapper. The Nth execution of
 * a tool draws from the stream (run, `tool:<name>`, N), whatever happened before it.
 */
export function createScenarioToolHost(scenario: Scenario, world: World, key: StreamKey): ScenarioToolHost {
  const tools = new Map(scenario.tools.map((spec) => [spec.definition.name, new FlakyTool(spec, scenario.faults)]));
  const executions = new Map<string, number>();
  const faults: Partial<Record<FaultKind, number>> = {};
  return {
    definitions: scenario.tools.map((spec) => spec.definition),
    faults,
    traits(name) {
      return tools.get(name)?.spec;
    },
    execute(name, input) {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool '${name}'`);
      const index = executions.get(name) ?? 0;
      executions.set(name, index + 1);
      const execution = tool.execute(input, world, stream(key, `tool:${name}`, index));
      if (execution.fault !== null) faults[execution.fault] = (faults[execution.fault] ?? 0) + 1;
      return execution;
    },
  };
}
