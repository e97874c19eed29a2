import { FAULT_KINDS, type FaultKind } from '../faults/fault-profile.js';
import { FlakyTool } from '../faults/flaky-tool.js';
import type { ToolHost } from '../loop/tool-host.js';
import { stream, type StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import type { World } from '../scenarios/world.js';

export interface ScenarioToolHost extends ToolHost {
  /** Faults injected so far, by kind. */
  readonly faults: Readonly<Partial<Record<FaultKind, number>>>;
}

/** A tool of the run and the name of its stream (`tool:<name>`), written once per run, not per call. */
interface HostedTool {
  readonly tool: FlakyTool;
  readonly purpose: string;
}

/**
 * The scenario's tools over one world, each behind a flaky wrapper. The Nth execution of
 * a tool draws from the stream (run, `tool:<name>`, N), whatever happened before it.
 */
export function createScenarioToolHost(scenario: Scenario, world: World, key: StreamKey): ScenarioToolHost {
  const tools = new Map<string, HostedTool>();
  for (const spec of scenario.tools) {
    const name = spec.definition.name;
    tools.set(name, { tool: new FlakyTool(spec, scenario.faults), purpose: `tool:${name}` });
  }
  // Every kind from the start, in one order: each run's counts then share one shape, and a
  // count is a plain update rather than a property added in whatever order faults come.
  const faults = {} as Record<FaultKind, number>;
  for (const kind of FAULT_KINDS) faults[kind] = 0;
  return {
    definitions: scenario.tools.map((spec) => spec.definition),
    faults,
    traits(name) {
      return tools.get(name)?.tool.spec;
    },
    execute(name, input) {
      const hosted = tools.get(name);
      if (hosted === undefined) throw new Error(`no tool '${name}'`);
      const { tool, purpose } = hosted;
      const execution = tool.execute(input, world, stream(key, purpose, tool.executions));
      if (execution.fault !== null) faults[execution.fault] += 1;
      return execution;
    },
  };
}
