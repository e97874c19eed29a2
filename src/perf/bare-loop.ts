import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import { SimulatedModel } from '../model/simulated/simulated-model.js';
import type { StreamKey } from '../random/streams.js';
import type { Scenario } from '../scenarios/loader.js';
import { createWorld } from '../tools/world.js';
import { createScenarioToolHost } from '../run/scenario-tool-host.js';

/**
 * The least a loop can do: call the model, run its tools, repeat. No guards, events,
 * metrics or clock. The benchmark's reference point for what the harness costs on top;
 * it runs the same model and tools, so it takes the same steps as the `none` arm.
 * @returns the number of model calls (steps) the run took
 */
export function runBareLoop(scenario: Scenario, key: StreamKey, maxIterations = 250): number {
  const world = createWorld(scenario.world);
  const host = createScenarioToolHost(scenario, world, key);
  const model = new SimulatedModel({ persona: scenario.persona, plan: scenario.plan, streamKey: key });
  const tools = [...host.definitions];
  const messages: MessageParam[] = [{ role: 'user', content: scenario.prompt }];
  let steps = 0;
  while (steps < maxIterations) {
    const reply = model.respond({
      model: DEFAULT_MODEL_ID,
      max_tokens: 1024,
      system: scenario.system,
      tools,
      messages,
    });
    steps += 1;
    messages.push({ role: 'assistant', content: reply.content });
    const results: ToolResultBlockParam[] = [];
    for (const block of reply.content) {
      if (block.type !== 'tool_use') continue;
      const execution = host.execute(block.name, block.input as Record<string, unknown>);
      // The reference point is the synchronous path: the built-in scenarios' tools answer at once.
      if (execution instanceof Promise) throw new Error(`the bare loop runs synchronous tools only ('${block.name}')`);
      results.push(
        execution.kind === 'ok'
          ? { type: 'tool_result', tool_use_id: block.id, content: execution.content }
          : {
              type: 'tool_result',
              tool_use_id: block.id,
              content: `Error: ${execution.error.message}`,
              is_error: true,
            },
      );
    }
    if (results.length === 0) break;
    messages.push({ role: 'user', content: results });
  }
  return steps;
}
