import { argumentRepairGuard } from './argument-repair.js';
import { concurrencyGuard } from './concurrency.js';
import { contextCompactionGuard } from './context-compaction.js';
import { errorClassificationGuard } from './error-classification.js';
import { iterationBudgetGuard } from './iteration-budget.js';
import { lastKnownGoodGuard } from './last-known-good.js';
import { llmRecoveryGuard } from './llm-recovery.js';
import { loopDetectionGuard } from './loop-detection.js';
import { orderingFixupGuard } from './ordering-fixup.js';
import { outputLimitRecoveryGuard } from './output-limit-recovery.js';
import { repeatFingerprintGuard } from './repeat-fingerprint.js';
import { runJournalGuard } from './run-journal.js';
import { stuckToolGuard } from './stuck-tool.js';
import { timeLimitsGuard } from './time-limits.js';
import { toolBudgetGuard } from './tool-budget.js';
import { injectionDetectorGuard } from './injection-detector.js';
import { sessionTrustGuard } from './session-trust.js';
import { toolFilterGuard } from './tool-filter.js';
import { outputContractsGuard } from './output-contracts.js';
import { toolOutputIsolationGuard } from './tool-output-isolation.js';
import { writeVerificationGuard } from './write-verification.js';

/**
 * Every built-in guard, once, in the order our loop consults them. Each has two names:
 * `code` names its module (`ordering-fixup.ts`), its factory (`orderingFixup()`), its
 * descriptor (`orderingFixupGuard`) and the middleware option that turns it on; the
 * descriptor's `name` is its arm name (`fixup`), in arms files and results. A guard no
 * framework extension point can host says why (`unhosted`). Arms and the middleware read
 * this list; tests hold docs/guards.md and the names of the modules to it.
 */
export const GUARD_REGISTRY = [
  // First, innermost of the model-call wrappers: a call the API refuses because the
  // configuration changed is sent again with the last one that worked, before recovery
  // would read the refusal as an unknown model and move every later call to its fallback.
  {
    code: 'lastKnownGood',
    descriptor: lastKnownGoodGuard,
    unhosted:
      "under the middleware the model is the framework's model object, fixed for the session: a guard sees no configuration change to roll back",
  },
  // Near the front: model-call wrappers nest in guard order, so recovery is near the model,
  // like an HTTP client's retry layer (only rollback is nearer); a later wrapper (reactive
  // compaction on a 413, say) sees a call only once transient faults have been ridden out.
  // It takes no part in the tool-side decisions the other guards are ordered for.
  { code: 'llmRecovery', descriptor: llmRecoveryGuard },
  // Outside recovery, so a 413 reaches it only once transient faults are ridden out and its
  // summary calls are retried too; inside output-limit recovery, whose raise must not
  // lengthen a summary.
  {
    code: 'contextCompaction',
    descriptor: contextCompactionGuard,
    unhosted:
      "it replaces the transcript with a summary made by its own model call inside the model-call wrapper; a framework keeps its own history, which neither generateText's model middleware nor a LangChain wrapModelCall hands back rewritten",
  },
  // Outside recovery: it sees a reply only once transient faults are ridden out, and its
  // raised resend gets the same recovery.
  {
    code: 'outputLimitRecovery',
    descriptor: outputLimitRecoveryGuard,
    unhosted:
      'on a cut-off reply it sends a continuation instead of running the tools; a framework ends its loop on a reply without tool calls',
  },
  // Repairs the transcript before each call: a resumed history may be out of order.
  {
    code: 'orderingFixup',
    descriptor: orderingFixupGuard,
    unhosted: "it repairs our loop's transcript; a framework builds its own, already in order",
  },
  // Before the other call-time guards: a call of a tool the filter left out, or a side
  // effect session trust refuses, is answered before anything else counts or runs it.
  {
    code: 'toolFilter',
    descriptor: toolFilterGuard,
    unhosted:
      "it narrows the tools each request offers; under the middleware a step offers the framework's own tool list, which a guard's request does not replace",
  },
  { code: 'sessionTrust', descriptor: sessionTrustGuard },
  // An execution wrapper before classify's, so inside it: a broken answer is a failure
  // classify retries like any transient one.
  { code: 'outputContracts', descriptor: outputContractsGuard },
  { code: 'stuckTool', descriptor: stuckToolGuard },
  // The article's "count every tool call": a call refused by another guard still cost the
  // model a turn, so it counts (`counts: 'executed'` counts only what reached the tools).
  { code: 'toolBudget', descriptor: toolBudgetGuard },
  // The article's rule: the same tool with the same arguments twice in a row.
  { code: 'repeatFingerprint', descriptor: repeatFingerprintGuard },
  { code: 'errorClassification', descriptor: errorClassificationGuard },
  // An execution wrapper outside classify's, so it reads a write's answer as classify left
  // it (a garbled body is a failure there); it runs its own reads through the host.
  {
    code: 'writeVerification',
    descriptor: writeVerificationGuard,
    unhosted:
      "it runs reads of another tool on a write's behalf; under the middleware the framework runs the tools, and a guard can only wrap the call it was given",
  },
  // Before the iteration budget's warning: one intervention a batch, and thrash is the
  // more urgent news.
  { code: 'loopDetection', descriptor: loopDetectionGuard },
  // Answers its own tool before the others see the call; stops at its limit after the
  // budget's final turn has had its chance.
  { code: 'iterationBudget', descriptor: iterationBudgetGuard },
  { code: 'timeLimits', descriptor: timeLimitsGuard },
  {
    code: 'concurrency',
    descriptor: concurrencyGuard,
    unhosted:
      "how a turn's tool calls are scheduled is the framework's own, and under the middleware a session runs them one after another (each waits for the one before, retries and backoffs included)",
  },
  // Only reads arguments that arrive as text (the OpenAI-compatible edge); its place in
  // the order does not matter, since it is the only guard with that hook.
  {
    code: 'argumentRepair',
    descriptor: argumentRepairGuard,
    unhosted:
      'it reads tool arguments that arrive as text (the OpenAI-compatible edge); over the Messages API they arrive parsed',
  },
  // Answers only its own tools; compaction shows its journal after every summary.
  { code: 'runJournal', descriptor: runJournalGuard },
  // An execution wrapper outside classify's: it reads an output once any automatic retries are done.
  { code: 'injectionDetector', descriptor: injectionDetectorGuard },
  // Last, so its model-call wrapper is the outermost: it marks the request as the model
  // gets it, and every wrapper inside (recovery, compaction) sees the marked request.
  {
    code: 'toolOutputIsolation',
    descriptor: toolOutputIsolationGuard,
    unhosted:
      "it marks the tool outputs of the request at the model call; under the middleware a model call is made by the framework's own client, which takes only the model from a guard's request",
  },
] as const;

export type GuardEntry = (typeof GUARD_REGISTRY)[number];

/** The guards a framework's extension points can host. */
export type HostedGuardEntry = Exclude<GuardEntry, { readonly unhosted: string }>;
