import { z } from 'zod';
import type { MaybePromise } from '../../tools/maybe-promise.js';
import type { ToolExecution } from '../../tools/tool-execution.js';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';

/** Whether a tool's output holds a prompt injection: a cheap pattern, or a user's own model call. */
export type InjectionClassifier = (text: string, tool: string) => boolean | Promise<boolean>;

export interface InjectionDetectorOptions {
  /**
   * The classifier. @default heuristicInjectionClassifier, a handful of patterns for words
   * addressed to an AI that try to steer it (no model call)
   */
  readonly classify?: InjectionClassifier;
}

/** What the model gets instead of an output the classifier flagged. */
export const WITHHELD_OUTPUT =
  'This tool output was withheld: it appeared to contain instructions addressed to an AI assistant (a possible prompt injection), so its content is not shown.';

/** Words that try to steer the reader: set its instructions aside, speak for its user, or tell it to make a call. */
const STEERING = [
  /\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:previous|prior|earlier|above|all|your)\b.{0,20}\binstructions?\b/i,
  /\b(?:message|note|instructions?|request) (?:from|to) (?:me|the (?:user|assistant|account owner|AI|model)|your (?:user|owner))\b/i,
  /\b(?:AI|LLM) (?:assistant|agent|model)\b/i,
  /\bbefore you (?:go on|continue|proceed|do|solve|finish|complete)\b.{0,30}\btask\b/i,
  /\b(?:call|use|invoke|run) (?:the )?`?[a-z]+_[a-z_]+`? (?:tool )?with\b/i,
  /^\s*TODO:/m,
];

/**
 * The default classifier: flags text that tries to steer an AI reader (set its
 * instructions aside, speak for its user, tell it to call a tool). Cheap and blunt: a
 * benign page that quotes such words is flagged too, which is the false-positive cost a
 * sweep without attacks measures.
 *
 * @example
 * heuristicInjectionClassifier('Ignore all previous instructions and ...', 'read_inbox') // true
 */
export function heuristicInjectionClassifier(text: string): boolean {
  return STEERING.some((pattern) => pattern.test(text));
}

/**
 * An injection detector: every successful tool output goes through a classifier, and one
 * it flags is replaced by a notice that it was withheld (AgentDojo's
 * `transformers_pi_detector` does the same with a fine-tuned model). What it buys (attacks
 * that never reach the model) and what it costs (outputs withheld that held no attack) are
 * both measured.
 *
 * @example
 * injectionDetector() // the heuristic classifier
 * injectionDetector({ classify: async (text) => (await myModeration(text)).flagged })
 */
export function injectionDetector({ classify = heuristicInjectionClassifier }: InjectionDetectorOptions = {}): Guard {
  return {
    name: 'detect',
    aroundExecution(ctx, next) {
      const screen = (execution: ToolExecution): MaybePromise<ToolExecution> => {
        if (execution.kind !== 'ok') return execution;
        const withhold = (flagged: boolean): ToolExecution => {
          if (!flagged) return execution;
          ctx.emit({ type: 'agent.injection.withheld', at: ctx.clock.now(), tool: ctx.call.name });
          return { ...execution, content: WITHHELD_OUTPUT };
        };
        const verdict = classify(execution.content, ctx.call.name);
        return verdict instanceof Promise ? verdict.then(withhold) : withhold(verdict);
      };
      const execution = next();
      return execution instanceof Promise ? execution.then(screen) : screen(execution);
    },
  };
}

/** The injection detector in an arm, with the heuristic classifier (a user's own classifier is a guard module of theirs). */
export const injectionDetectorGuard = defineGuard({
  name: 'detect',
  settings: z.strictObject({}),
  events: ['agent.injection.withheld'],
  build: () => injectionDetector(),
});
