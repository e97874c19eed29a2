import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { AgentEvent } from '../loop/events.js';
import type { RunOutcome } from '../loop/outcome.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import { openRun, type RunOutput, type RunSession } from '../run/run-session.js';
import { type AgentEndpoint, SIMULATED_BASE_URLS } from '../run/simulated-endpoint.js';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import { RecordingEndpoint, ReplayingEndpoint } from '../cassettes/cassette-fetch.js';
import { DEFAULT_MODEL_ID } from '../model/model-client.js';
import type { Scenario } from '../scenarios/loader.js';
import { scenarioForSeed } from '../scenarios/dataset-task.js';
import { AgentMeter } from './agent-meter.js';
import { type AgentReturn, outcomeOf } from './agent-result.js';

export interface AgentRunSessionSpec {
  readonly sweepSeed: number;
  readonly scenario: Scenario;
  /** The arm's name, as the record writes it. */
  readonly arm: string;
  readonly seed: number;
  /** Names the agent in a failed run's reason. */
  readonly agentName: string;
  /** The API the agent calls: labels the record's model when the endpoint does not. */
  readonly api: 'anthropic' | 'openai-chat';
  /** Hears each tool execution as an agent.tool.call / agent.tool.result event. */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Where replies come from. @default inProcessModel() */
  readonly model?: ModelSource;
  /** What the record calls the model, instead of the endpoint's or the API's label (a served run). */
  readonly modelLabel?: string;
  /** The ensemble member whose persona `scenario` carries; the record gets it last. @default none */
  readonly member?: number | undefined;
  /** Record the run's model calls into a cassette folder, or answer them from it, on the wire. @default neither */
  readonly cassette?: CassetteUse | undefined;
}

/** How an agent's run ended, as its caller saw it: what `run` returned, or what it threw. */
export type AgentRunEnding = { readonly returned: AgentReturn } | { readonly thrown: unknown };

/**
 * One agent run opened: a run session (world, seeded tool host, clock, model faults,
 * journal) with the model endpoint and the meter an agent reaches them through, in this
 * process (`runAgent`) or over HTTP (`spiralbench serve`). `finish` ends the session once.
 */
export interface AgentRunSession
  extends Pick<RunSession, 'scenario' | 'seed' | 'world' | 'host' | 'clock' | 'key' | 'journal' | 'report'> {
  readonly meter: AgentMeter;
  /** The run's model, unmetered; `meter.fetch(endpoint.fetch)` is what agents call. */
  readonly endpoint: AgentEndpoint;
  /** `history` then `prompt` as a user turn: what the run opens with. */
  readonly openingMessages: MessageParam[];
  finish(ending: AgentRunEnding): RunOutput;
}

/**
 * Opens one run of an agent: the scenario's world, its seeded flaky tools and its
 * simulated model behind its seeded model faults, as for our own loop's runs. Nothing
 * runs until the agent calls; the meter counts what it does.
 *
 * @example
 * const session = openAgentRun({ sweepSeed: 0, scenario, arm: 'agent:mine', seed: 1, agentName: 'mine', api: 'anthropic' });
 * const { record } = session.finish({ returned: 'done' });
 */
export function openAgentRun(spec: AgentRunSessionSpec): AgentRunSession {
  const { arm, agentName, api } = spec;
  // A dataset scenario's run plays its seed's task: its prompt, history and model are that task's.
  const scenario = scenarioForSeed(spec.scenario, spec.seed);
  const session = openRun({
    sweepSeed: spec.sweepSeed,
    scenario,
    arm,
    seed: spec.seed,
    member: spec.member,
    onEvent: spec.onEvent,
  });
  const { clock, host } = session;
  const meter = new AgentMeter(clock, host, (event) => session.hear(event));
  const source = spec.model ?? inProcessModel();
  const apiLabel = api === 'openai-chat' ? 'simulated-openai-sdk' : 'simulated-sdk';
  const { endpoint, recording, replaying } = cassetteEndpoint(spec, source, session, apiLabel);
  const openingMessages: MessageParam[] = [
    ...(scenario.history as MessageParam[]),
    { role: 'user', content: scenario.prompt },
  ];
  const finish = (ending: AgentRunEnding): RunOutput => {
    // A replayed call the cassette lacked failed the run, whatever the agent made of the refusal.
    const missed = replaying?.missed;
    const ended: AgentRunEnding = missed === undefined ? ending : { thrown: missed };
    let outcome: RunOutcome;
    if ('returned' in ended) outcome = outcomeOf(ended.returned, meter.counts.modelCalls);
    else {
      const scrubbed = endpoint.scrub?.(ended.thrown) ?? ended.thrown;
      outcome = { kind: 'failed', reason: errorLine(agentName, scrubbed), error: scrubbed };
    }
    const conversation = meter.conversation() ?? openingMessages;
    meter.release();
    const counts = meter.counts;
    const metrics = {
      toolCalls: counts.toolCalls,
      toolExecutions: counts.toolExecutions,
      toolRetries: session.toolRetries(),
      modelCalls: counts.modelCalls,
      inputTokens: counts.inputTokens,
      outputTokens: counts.outputTokens,
      cacheReadTokens: counts.cacheReadTokens,
      cacheWriteTokens: counts.cacheWriteTokens,
      virtualMs: clock.now(),
      modelRetries: 0,
      costUsd: counts.costUsd,
    };
    const output = session.finish({
      result: { outcome: recordable(outcome, agentName), metrics, messages: conversation },
      model: spec.modelLabel ?? endpoint.label ?? apiLabel,
      // Agents run unstreamed as far as the record knows: it carries no stream cuts.
      stream: false,
      journal: session.hasJournal(),
    });
    if (spec.cassette !== undefined) {
      recording?.save(spec.cassette.dir);
      replaying?.saveRecorded(spec.cassette.dir);
    }
    return output;
  };
  return {
    scenario,
    seed: spec.seed,
    world: session.world,
    host,
    clock,
    key: session.key,
    journal: () => session.journal(),
    report: session.report,
    meter,
    endpoint,
    openingMessages,
    finish,
  };
}

/**
 * The run's model endpoint as the agent reaches it: the source's, or, with a cassette,
 * the same kept on the way (record) or answered from the cassette (replay; with
 * `--record-missing`, the source's behind it for the calls the cassette lacks).
 */
function cassetteEndpoint(
  spec: AgentRunSessionSpec,
  source: ModelSource,
  session: RunSession,
  apiLabel: string,
): { endpoint: AgentEndpoint; recording?: RecordingEndpoint; replaying?: ReplayingEndpoint } {
  const { arm, cassette } = spec;
  const { scenario } = session;
  const { clock } = session;
  const live = () => {
    const made = source.agentEndpoint(scenario, session.key, session.modelFaults, clock);
    // The sweep's checks refuse such a source before anything runs (checkAgentSweep).
    if (made === undefined) throw new Error(`agent arm '${arm}' cannot run against ${source.name} yet`);
    return made;
  };
  if (cassette === undefined) return { endpoint: live() };
  const context = {
    run: { scenario: scenario.id, arm, seed: spec.seed, member: spec.member },
    clock,
    faultCounts: session.modelFaults.counts,
  };
  if (cassette.mode === 'record') {
    const inner = live();
    const recording = new RecordingEndpoint(inner, context, spec.modelLabel ?? inner.label ?? apiLabel);
    return { endpoint: recording.endpoint, recording };
  }
  const behind = cassette.recordMissing === true ? live() : undefined;
  // A run the cassette lacks is named as the replayed sweep's model would name it.
  const label = spec.modelLabel ?? behind?.label ?? (source.name.startsWith('simulated') ? apiLabel : source.name);
  // With a live model behind, the agent's clients point at it: the calls the cassette lacks go there as they are.
  const shape = {
    baseURL: behind?.baseURL ?? SIMULATED_BASE_URLS,
    modelId: behind?.modelId ?? source.modelId ?? DEFAULT_MODEL_ID,
    ...(behind?.scrub === undefined ? {} : { scrub: behind.scrub }),
  };
  const replaying = ReplayingEndpoint.open(cassette.dir, label, context, shape, behind);
  return { endpoint: replaying.endpoint, replaying };
}

/**
 * The outcome, or a failed one if the agent escalated with a payload no record can hold
 * (a BigInt, a cycle, a function): the payload is written into runs.jsonl, and one run's
 * bad value must fail that run, not the sweep.
 */
function recordable(outcome: RunOutcome, agent: string): RunOutcome {
  if (outcome.kind !== 'escalated') return outcome;
  let problem: unknown;
  try {
    if (JSON.stringify(outcome.payload) !== undefined) return outcome;
    problem = new TypeError(`${typeof outcome.payload} is not a JSON value`);
  } catch (error) {
    problem = error;
  }
  const error = new TypeError(
    `the escalation payload cannot be written to a record: ${problem instanceof Error ? problem.message : String(problem)}`,
  );
  return { kind: 'failed', reason: errorLine(agent, error), error };
}

/** An error that ended an agent's run, on one line, for the outcome's reason. */
function errorLine(agent: string, error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `${agent}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`;
}
