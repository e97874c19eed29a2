import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { parseAgentSpec } from '../agents/agent-arm.js';
import { readInputFile } from '../scenarios/input-file.js';
import { parseYamlInput } from '../scenarios/yaml-input.js';
import { UserInputError } from '../user-input-error.js';
import { COMPACT_DEFAULTS, RECOVER_DEFAULTS, reservedArmName, type Arm, type GuardSetting } from './arms.js';

const guardSetting = z.discriminatedUnion('guard', [
  z.strictObject({ guard: z.literal('stuck') }),
  z.strictObject({
    guard: z.literal('budget'),
    maxToolCalls: z.union([z.number().int().min(1), z.literal('task-class')]).default('task-class'),
    counts: z.enum(['requested', 'executed']).default('requested'),
  }),
  z.strictObject({ guard: z.literal('repeat'), window: z.number().int().min(1).default(1) }),
  z.strictObject({
    guard: z.literal('classify'),
    maxRetries: z.number().int().min(0).default(3),
    backoffMs: z.array(z.number().int().min(0)).min(1).default([1000, 2000, 4000]),
  }),
  z.strictObject({
    guard: z.literal('recover'),
    maxRetries: z.number().int().min(0).default(RECOVER_DEFAULTS.maxRetries),
    backoffMs: z
      .array(z.number().int().min(0))
      .min(1)
      .default([...RECOVER_DEFAULTS.backoffMs]),
    jitter: z.number().min(0).max(1).default(RECOVER_DEFAULTS.jitter),
    retryAfterCapMs: z.number().min(0).default(RECOVER_DEFAULTS.retryAfterCapMs),
    fallbackModel: z.string().min(1).nullable().default(RECOVER_DEFAULTS.fallbackModel),
  }),
  z.strictObject({
    guard: z.literal('output'),
    raisedMaxTokens: z.number().int().min(1).default(64_000),
    maxResumes: z.number().int().min(0).default(3),
  }),
  z.strictObject({
    guard: z.literal('iterations'),
    initial: z.union([z.number().int().min(1), z.literal('task-class')]).default('task-class'),
    extension: z.number().int().min(0).default(10),
    cap: z.union([z.number().int().min(1), z.literal('task-class')]).default('task-class'),
  }),
  z.strictObject({
    guard: z.literal('time'),
    softMs: z.union([z.number().int().min(0), z.literal('task-class')]).default('task-class'),
    hardMs: z.union([z.number().int().min(0), z.literal('task-class')]).default('task-class'),
  }),
  z.strictObject({ guard: z.literal('concurrency') }),
  z.strictObject({
    guard: z.literal('loops'),
    window: z.number().int().min(2).default(6),
    identical: z.number().int().min(2).default(3),
    pattern: z.number().int().min(2).default(4),
  }),
  z.strictObject({ guard: z.literal('fixup') }),
  z.strictObject({ guard: z.literal('repair'), repairTruncated: z.boolean().default(false) }),
  z.strictObject({
    guard: z.literal('compact'),
    threshold: z.number().gt(0).max(1).default(COMPACT_DEFAULTS.threshold),
    keepLast: z.number().int().min(1).default(COMPACT_DEFAULTS.keepLast),
    deepKeepLast: z.number().int().min(1).default(COMPACT_DEFAULTS.deepKeepLast),
    pin: z.boolean().default(COMPACT_DEFAULTS.pin),
    summaryModel: z.string().min(1).default(COMPACT_DEFAULTS.summaryModel),
    summaryMaxTokens: z.number().int().min(1).default(COMPACT_DEFAULTS.summaryMaxTokens),
    ladderWindow: z.number().int().min(0).default(COMPACT_DEFAULTS.ladderWindow),
    maxRecoveries: z.number().int().min(0).default(COMPACT_DEFAULTS.maxRecoveries),
    reactive: z.boolean().default(COMPACT_DEFAULTS.reactive),
    counter: z.enum(['estimate', 'cl100k']).default(COMPACT_DEFAULTS.counter),
  }),
  z.strictObject({ guard: z.literal('journal'), digestChars: z.number().int().min(0).default(500) }),
]);

const armName = z.string().regex(/^[a-z0-9][a-z0-9:_-]*$/, 'lower-case letters, digits, -, _ or :');

/** A user's agent as an arm: its module (relative to the arms file, `#export` optional) and its settings. */
const agentArm = z.strictObject({
  name: armName,
  agent: z.string().min(1, 'a module path, e.g. ./my-agent.ts'),
  settings: z.record(z.string(), z.unknown()).default({}),
});

const guardArm = z.strictObject({
  name: armName,
  guards: z
    .array(guardSetting)
    .refine((guards) => new Set(guards.map((g) => g.guard)).size === guards.length, 'each guard at most once'),
});

/**
 * An entry is an agent arm when it has an `agent` key, else a guard arm: chosen before
 * parsing, so each problem is reported at its own field, not as "matches neither".
 */
const armEntry = z.unknown().transform((entry, ctx) => {
  const schema = typeof entry === 'object' && entry !== null && 'agent' in entry ? agentArm : guardArm;
  const parsed = schema.safeParse(entry);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

const armsFileSchema = z.strictObject({
  arms: z.array(armEntry).min(1),
});

/**
 * Custom arms from a YAML or JSON file:
 *
 * ```yaml
 * arms:
 *   - name: tight-budget
 *     guards:
 *       - { guard: budget, maxToolCalls: 8, counts: executed }
 *       - { guard: repeat, window: 2 }
 *       - { guard: classify, maxRetries: 2, backoffMs: [500, 1000] }
 *       - { guard: recover, fallbackModel: null }
 *   - name: mine
 *     agent: ./my-agent.ts        # a defineAgent module, from this file's folder; #name picks an export
 *     settings: { maxTurns: 8 }   # parsed by the agent's own settings schema
 * ```
 */
export function loadArmsFile(path: string): Map<string, Arm> {
  return parseArmsFile(readInputFile(path), path);
}

/** The custom arms of an arms file's text; `source` names the file in error messages. */
export function parseArmsFile(text: string, source: string): Map<string, Arm> {
  let data: unknown;
  try {
    data = parseYamlInput(text);
  } catch (error) {
    throw UserInputError.single(source, '', `a readable YAML or JSON arms file (${firstLine(error)})`);
  }
  const parsed = armsFileSchema.safeParse(data);
  if (!parsed.success) {
    throw new UserInputError(
      parsed.error.issues.map((issue) => ({
        source,
        field: issue.path.map(String).join('.'),
        expected: issue.message,
      })),
    );
  }
  const arms = new Map<string, Arm>();
  parsed.data.arms.forEach((arm, i) => {
    const reserved = reservedArmName(arm.name);
    if (reserved !== undefined)
      throw UserInputError.single(
        source,
        `arms.${i}.name`,
        `a name of your own; '${arm.name}' is reserved: ${reserved}`,
      );
    if (arms.has(arm.name))
      throw UserInputError.single(source, `arms.${i}.name`, `a name used once; '${arm.name}' is used twice`);
    if ('agent' in arm) {
      const module = parseAgentSpec(arm.agent, dirname(resolve(source)));
      arms.set(arm.name, { name: arm.name, guards: [], agent: { kind: 'module', ...module, settings: arm.settings } });
      return;
    }
    arms.set(arm.name, { name: arm.name, guards: arm.guards as GuardSetting[] });
  });
  return arms;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
