/**
 * spiralbench's public surface: everything a user may import from `'spiralbench'`, and
 * nothing else. Every other module is internal and free to change between versions.
 * docs/api.md describes these names, grouped as below; a test (src/index.test.ts) keeps
 * this list, the built package and that page in step.
 *
 * @example
 * import { BudgetedAgentLoop, toolBudget, stuckTool, ScriptedModel } from 'spiralbench';
 *
 * @packageDocumentation
 */

// The loop: one run of an agent over the Anthropic Messages API, and what it reports.
export { BudgetedAgentLoop, type LoopOptions } from './loop/budgeted-agent-loop.js';
export type { RunResult, RunOutcome, RunMetrics } from './loop/outcome.js';
export type { AgentEvent } from './loop/events.js';

// Guards: the safeguards, each a factory returning one Guard, and the hooks a user's own guard implements.
export type { Guard, LoopContext } from './loop/guard.js';
export { toolBudget } from './loop/guards/tool-budget.js';
export { repeatFingerprint } from './loop/guards/repeat-fingerprint.js';
export { errorClassification } from './loop/guards/error-classification.js';
export { stuckTool } from './loop/guards/stuck-tool.js';
export { llmRecovery } from './loop/guards/llm-recovery.js';
export { lastKnownGood } from './loop/guards/last-known-good.js';
export { contextCompaction } from './loop/guards/context-compaction.js';
export { outputLimitRecovery } from './loop/guards/output-limit-recovery.js';
export { orderingFixup } from './loop/guards/ordering-fixup.js';
export { loopDetection } from './loop/guards/loop-detection.js';
export { iterationBudget } from './loop/guards/iteration-budget.js';
export { timeLimits } from './loop/guards/time-limits.js';
export { concurrency } from './loop/guards/concurrency.js';
export { argumentRepair } from './loop/guards/argument-repair.js';
export { runJournal } from './loop/guards/run-journal.js';
export { toolFilter } from './loop/guards/tool-filter.js';
export { sessionTrust } from './loop/guards/session-trust.js';
export { injectionDetector, heuristicInjectionClassifier } from './loop/guards/injection-detector.js';
export { toolOutputIsolation } from './loop/guards/tool-output-isolation.js';
export { outputContracts } from './loop/guards/output-contracts.js';
export { writeVerification } from './loop/guards/write-verification.js';
export type { ReadBack } from './tools/read-back.js';
export type { OutputSchema } from './tools/output-contract.js';
export { RunJournal } from './loop/journal/run-journal.js';

// Models: the one port to a model, the real Claude client, and a scripted model for exact tests.
export type { ModelClient, ModelRequest, Message } from './model/model-client.js';
export { AnthropicModelClient, type AnthropicClientOptions } from './model/anthropic-client.js';
export { ScriptedModel, type ScriptedTurn } from './model/scripted-model.js';
export { VirtualClock } from './clock/virtual-clock.js';

// Tools: what the loop calls, and what a call comes to.
export type { ToolHost, ToolTraits } from './loop/tool-host.js';
export type { ToolExecution } from './tools/tool-execution.js';
export { ToolError, type ToolErrorCode } from './tools/tool-error.js';
export type { DataFaultKind, FaultKind } from './tools/tool-fault.js';
export { DATA_FAULT_KINDS } from './tools/tool-fault.js';
export type { ToolSpec } from './tools/tool-spec.js';
export type { World, Json } from './tools/world.js';

// Results: a finished sweep folder, read back and checked.
export { openFinishedSweep, readRuns, type FinishedSweep } from './results/results-reader.js';
export type { StoredRun } from './results/run-record-schema.js';

// Guards of your own: one module each, usable in an arms file by path (docs/guards.md).
export { defineGuard, type GuardDescriptor, type GuardRun } from './loop/define-guard.js';

// Agents of your own: any loop as an arm, run on the seeded model and tools (docs/agents.md).
export { defineAgent, type AgentDefinition } from './agents/define-agent.js';
export type { AgentContext } from './agents/agent-context.js';
export type { AgentTools } from './agents/agent-tools.js';
export type { AgentResult } from './agents/agent-result.js';
export { runAgentSweep, type AgentSweepOptions, type AgentSweepResult } from './sweep/agent-sweep.js';

// Tools of your own: for a scenario's tools_module, and the seeded faults around any function (docs/tools.md).
export { defineTool, type DefinedTool, type ToolDefinition } from './tools/define-tool.js';
export { invalidInput, notFound } from './tools/tool-error.js';
export { withFaults, type WithFaultsOptions, type FlakyCall } from './faults/with-faults.js';
export type { ToolDataFaults } from './faults/data/index.js';
export type { MaybePromise } from './tools/maybe-promise.js';
