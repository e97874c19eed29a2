import type { AgentEvent } from '../loop/events.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { agentOf } from './agent-arm.js';
import type { AgentDefinition } from '../agents/define-agent.js';
import { runAgent } from '../agents/run-agent.js';
import { peerByArm } from '../peers/peer-registry.js';
import type { Scenario } from '../scenarios/loader.js';
import type { Arm } from './arms.js';
import type { ModelSource } from '../run/model-source.js';
import type { RunOutput } from '../run/run-session.js';

/** One run of an arm that names an agent: a built-in one (`peer:<name>`) or a user's (`agent:<name>`). */
export async function runAgentArm(spec: {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  readonly arm: Arm;
  readonly seed: number;
  readonly onEvent?: (event: AgentEvent) => void;
  readonly model?: ModelSource;
  readonly member?: number | undefined;
  readonly cassette?: CassetteUse | undefined;
}): Promise<RunOutput> {
  const { arm } = spec;
  let agent: AgentDefinition;
  let settings: unknown;
  if (arm.peer !== undefined) {
    const entry = peerByArm(arm.name) ?? peerByArm(`peer:${arm.peer.peer}`);
    if (entry === undefined) throw new Error(`no built-in agent for arm '${arm.name}'`);
    agent = entry.agent;
    // Results name the framework beside its settings (`peer`); the agent's schema takes the settings alone.
    const { peer: _, ...own } = arm.peer;
    settings = own;
  } else if (arm.agent !== undefined) {
    agent = await agentOf(arm.agent);
    settings = arm.agent.settings;
  } else throw new Error(`arm '${arm.name}' names no agent`);
  return runAgent({
    sweepSeed: spec.sweepSeed,
    scenario: spec.scenario,
    arm: arm.name,
    seed: spec.seed,
    agent,
    settings,
    member: spec.member,
    cassette: spec.cassette,
    ...(spec.onEvent === undefined ? {} : { onEvent: spec.onEvent }),
    ...(spec.model === undefined ? {} : { model: spec.model }),
  });
}
