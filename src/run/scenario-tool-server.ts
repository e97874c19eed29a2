import { ToolServer } from '../live/tool-server.js';
import { stream } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import { createWorld } from '../tools/world.js';
import { createScenarioToolHost } from './scenario-tool-host.js';

/**
 * A scenario's tools served over HTTP on loopback, in this thread, each run opened with
 * the very host a virtual run builds: the Nth execution of a tool draws from the stream
 * (run, `tool:<name>`, N), through the same flaky wrapper, and an asynchronous tool is
 * awaited by the server like any handler. The scenario object itself is served, so a
 * tool from a user's module runs as the user wrote it, closures and all.
 *
 * `timeoutMs` is the client's timeout in real ms: a hung answer is held well past it
 * before the server drops it.
 */
export function scenarioToolServer(scenario: Scenario, sweepSeed: number, timeoutMs: number): ToolServer {
  return new ToolServer({
    openRun(seed) {
      const key = { sweepSeed, scenario: scenario.id, runSeed: seed };
      // A dataset scenario's run plays its seed's task: that task's world.
      const task = scenarioForSeed(scenario, seed);
      const world = createWorld(task.world);
      const host = createScenarioToolHost(task, world, key);
      return {
        world,
        execute: (name, input) => host.execute(name, input),
        // Its own stream: how a timeout looks on the wire never moves a fault decision.
        slowBody: (tool, index) => stream(key, `live-wire:${tool}`, index).next() < 0.5,
      };
    },
    holdMs: Math.max(1000, timeoutMs * 20),
  });
}
