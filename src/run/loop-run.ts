import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { BudgetedAgentLoop } from '../loop/budgeted-agent-loop.js';
import type { RunDurability } from '../loop/durability.js';
import type { Guard } from '../loop/guard.js';
import { changingModelId } from '../faults/config-change.js';
import { DEFAULT_MODEL_ID, type ModelClient } from '../model/model-client.js';
import type { ToolExecution } from '../tools/tool-execution.js';
import type { RunOutput, RunSession } from './run-session.js';
import type { ScenarioToolHost } from './scenario-tool-host.js';

/** What our own loop brings to a session: its model, its guards and how it calls. */
export interface LoopDrive {
  readonly model: ModelClient;
  /** The model asked for, when the source names one. */
  readonly modelId?: string | undefined;
  /** The arm's guards, built for this session (its streams, its journal). */
  readonly guards: Guard[];
  /** Whether the record keeps the journal: the arm has the journal guard. */
  readonly keepsJournal: boolean;
  /** Checkpoints and the idempotency envelope for this run; none by default. */
  readonly durability?: RunDurability | undefined;
  /** Stream every model call (docs/streaming.md); the record's model reads `<model>+stream`. @default false */
  readonly stream?: boolean | undefined;
  /** Mark requests for the prompt cache (LoopOptions.promptCaching); '1h' with the hour-long lifetime. @default true */
  readonly promptCache?: boolean | '1h' | undefined;
  /** Sees every execution the tool host answers, before any guard reads it (live-check compares them). */
  readonly onExecution?: ((tool: string, execution: ToolExecution) => void) | undefined;
}

/** The model label of a run or sweep: the client's name, marked when replies were streamed. */
export function modelLabel(name: string, stream: boolean | undefined): string {
  return stream === true ? `${name}+stream` : name;
}

/** Our own loop, run in a session on the scenario's prompt, and the session finished. */
export async function runLoop(session: RunSession, drive: LoopDrive): Promise<RunOutput> {
  const { scenario } = session;
  const { model, modelId, onExecution } = drive;
  // Our loop reads its configuration before every call, so a change mid-run reaches it.
  const change = scenario.modelFaults.configChange;
  const loop = new BudgetedAgentLoop({
    model,
    ...(change !== null
      ? { modelId: changingModelId(modelId ?? DEFAULT_MODEL_ID, change) }
      : modelId === undefined
        ? {}
        : { modelId }),
    tools: onExecution === undefined ? session.host : observed(session.host, onExecution),
    guards: drive.guards,
    system: scenario.system,
    // As the file gives it: a resumed history may be out of order (the fixup guard's job).
    ...(scenario.history.length > 0 ? { history: scenario.history as MessageParam[] } : {}),
    clock: session.clock,
    ...(drive.durability === undefined ? {} : { durability: drive.durability }),
    ...(drive.stream === true ? { stream: {} } : {}),
    ...(drive.promptCache === false
      ? { promptCaching: false }
      : drive.promptCache === '1h'
        ? { promptCaching: { ttl: '1h' as const } }
        : {}),
    onEvent: session.hear,
  });
  const result = await loop.run(scenario.prompt);
  const live = session.live === undefined ? undefined : await session.live.finish();
  return session.finish({
    result,
    model: modelLabel(model.name, drive.stream),
    stream: drive.stream === true,
    journal: drive.keepsJournal,
    live,
  });
}

/** The host, with every execution shown to `see` as it comes back. */
function observed(host: ScenarioToolHost, see: (tool: string, execution: ToolExecution) => void): ScenarioToolHost {
  return {
    definitions: host.definitions,
    faults: host.faults,
    dataFaults: host.dataFaults,
    traits: (name) => host.traits(name),
    execute(name, input) {
      const execution = host.execute(name, input);
      if (execution instanceof Promise)
        return execution.then((done) => {
          see(name, done);
          return done;
        });
      see(name, execution);
      return execution;
    },
  };
}
