import { type DataFaultCounts, type FaultCounts, isDataFault, noDataFaults, noFaults } from '../tools/tool-fault.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import { toolFaults, type ToolFaults } from '../faults/flaky-tool.js';
import type { ToolHost } from '../loop/tool-host.js';
import { stream, type StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import type { World } from '../tools/world.js';
import type { Tool } from '@anthropic-ai/sdk/resources/messages';

export interface ScenarioToolHost extends ToolHost {
  /** Faults injected so far, by kind. */
  readonly faults: Readonly<FaultCounts>;
  /** Faults met in the data of answers, by kind; null when the scenario declares none (its records carry no `data_faults`). */
  readonly dataFaults: Readonly<DataFaultCounts> | null;
}

/** A tool of the scenario: its faults, the name of its stream and where a run counts its executions. */
interface HostedTool {
  readonly faults: ToolFaults;
  /** `tool:<name>`, written once rather than per call. */
  readonly purpose: string;
  readonly slot: number;
}

/**
 * What of a scenario's tools is the same in every run, made once; a run adds only its
 * counts. Shared by the scenario's runs, it is never changed once made: the tools' faults
 * are stateless (ToolFaults), and the definitions handed to every host are frozen.
 */
interface ToolTable {
  readonly tools: ReadonlyMap<string, HostedTool>;
  readonly definitions: readonly Tool[];
}

const tables = new WeakMap<Scenario, ToolTable>();

function tableOf(scenario: Scenario): ToolTable {
  let table = tables.get(scenario);
  if (table === undefined) {
    const tools = new Map<string, HostedTool>();
    for (const spec of scenario.tools) {
      const name = spec.definition.name;
      tools.set(name, { faults: toolFaults(spec, scenario.faults), purpose: `tool:${name}`, slot: tools.size });
    }
    // Frozen: every run's host hands out this one list.
    table = { tools, definitions: Object.freeze(scenario.tools.map((spec) => spec.definition)) };
    tables.set(scenario, table);
  }
  return table;
}

interface Counts {
  readonly faults: FaultCounts;
  readonly data: DataFaultCounts | null;
}

function counted(counts: Counts, execution: ToolExecution): ToolExecution {
  const { fault } = execution;
  if (fault === null) return execution;
  if (!isDataFault(fault)) counts.faults[fault] += 1;
  else if (counts.data !== null) counts.data[fault] += 1;
  return execution;
}

/**
 * The scenario's tools over one world, each behind a flaky wrapper. The Nth execution of
 * a tool draws from the stream (run, `tool:<name>`, N), whatever happened before it: its
 * index is taken when the execution starts, before an asynchronous tool settles.
 */
export function createScenarioToolHost(scenario: Scenario, world: World, key: StreamKey): ScenarioToolHost {
  const { tools, definitions } = tableOf(scenario);
  const executions: number[] = [];
  for (let slot = 0; slot < tools.size; slot++) executions.push(0);
  const counts: Counts = {
    faults: noFaults(),
    data: Object.keys(scenario.faults.data).length > 0 ? noDataFaults() : null,
  };
  return {
    definitions,
    faults: counts.faults,
    dataFaults: counts.data,
    traits(name) {
      return tools.get(name)?.faults.spec;
    },
    execute(name, input) {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool '${name}'`);
      const index = executions[tool.slot]!++;
      const execution = tool.faults.execute(index, input, world, stream(key, tool.purpose, index));
      if (!(execution instanceof Promise)) return counted(counts, execution);
      return execution.then((settled) => counted(counts, settled));
    },
  };
}
