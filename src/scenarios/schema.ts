import { z } from 'zod';
import { faultsSchema } from '../faults/fault-profile-file.js';
import { MALFORMED_ARGUMENT_KINDS, type MalformedArgumentKind } from '../faults/malformed-arguments.js';
import { MODEL_FAULT_KINDS, NO_MODEL_FAULTS } from '../faults/model-faults.js';

const probability = z.number().min(0).max(1);
const json = z.json();
/** Tool arguments; any string `$<step id>` or `$<step id>.<field>.<index>...` in them, at any depth, stands for an earlier step's result. */
const args = z
  .record(z.string(), json)
  .describe(
    'Tool arguments. A string "$<step id>" anywhere inside (nested objects and arrays too) stands for that earlier step\'s latest good result; "$<step id>.<field>.<index>" for a part of it.',
  );
const toolCall = z.strictObject({ tool: z.string().min(1).describe('A tool the scenario offers.'), args });

const MALFORMED_WORDS: Record<MalformedArgumentKind, string> = {
  fenced: 'inside a Markdown code fence',
  trailing_comma: 'with a comma after the last property',
  prose: 'with a sentence before and after the JSON',
  single_quotes: 'as a Python dict (single quotes, True/None)',
  truncated: 'cut off part-way',
};

const MODEL_FAULT_WORDS: Record<(typeof MODEL_FAULT_KINDS)[number], string> = {
  rate_limit: 'HTTP 429 rate_limit_error with retry-after (RateLimitError)',
  server_error: 'HTTP 500 api_error (InternalServerError)',
  overloaded: 'HTTP 529 overloaded_error (OverloadedError)',
  request_too_large: 'HTTP 413 request_too_large (ContentTooLargeError)',
  unknown_model: 'HTTP 404 not_found_error for the model id (NotFoundError)',
  unauthorized: 'HTTP 401 authentication_error (AuthenticationError)',
  connection_error: 'a dropped connection: the fetch rejects (APIConnectionError)',
  timeout: 'a timeout: the fetch rejects after timeout_ms (APIConnectionTimeoutError)',
  stream_cut:
    'a streamed reply cut mid-way by an `event: error` frame (overloaded_error; the SDK raises APIError mid-stream); streamed runs only, a non-streaming call goes through',
};

const modelFaultRates = z.strictObject(
  Object.fromEntries(
    MODEL_FAULT_KINDS.map((kind) => [
      kind,
      probability.optional().describe(`Chance per model call of ${MODEL_FAULT_WORDS[kind]}.`),
    ]),
  ),
);

export const modelFaultsSchema = z
  .strictObject({
    rates: modelFaultRates.default({}).describe('Fault rates per model call; one draw picks at most one fault.'),
    persistence: probability
      .default(NO_MODEL_FAULTS.persistence)
      .describe(
        'Chance that a retry of a failed call meets the same fault again (an outage lasts); otherwise the retry draws afresh from the rates.',
      ),
    models: z
      .array(z.string().min(1))
      .min(1)
      .nullable()
      .default(null)
      .describe(
        'Model ids the faults apply to, e.g. only the primary so that a fallback model succeeds; null or absent: every model.',
      ),
    retry_after_ms: z
      .number()
      .int()
      .min(0)
      .default(NO_MODEL_FAULTS.retryAfterMs)
      .describe('The retry-after a 429 carries, in ms (sent in whole seconds).'),
    timeout_ms: z
      .number()
      .int()
      .min(0)
      .default(NO_MODEL_FAULTS.timeoutMs)
      .describe('How long a timed-out model call hangs, in ms.'),
    config_change: z
      .strictObject({
        at_call: z
          .number()
          .int()
          .min(1)
          .describe('The model call (1 = the first) from which the configuration names the changed model.'),
        model: z
          .string()
          .min(1)
          .describe(
            'The model id the changed configuration names: one the API does not know (a typo, a retired model). The simulated endpoint answers every call to it with 404 not_found_error, whatever it names; a real API answers a model it knows.',
          ),
      })
      .nullable()
      .default(null)
      .describe(
        "A change of the agent's configuration while the run goes on (a reloaded file, a flag): from the given call on, the built-in loop asks for a model that does not exist. Agents that read their model id once (user agents, peers) do not meet it.",
      ),
  })
  .describe(
    'Faults of the model API, injected at the endpoint as real HTTP errors or dropped connections; the simulated model never learns of them.',
  );

export const BUDGET_CLASSES = { lookup: 5, standard: 15, research: 40 } as const;
export type BudgetClass = keyof typeof BUDGET_CLASSES;

export const planStepSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/, 'a lower-case identifier')
    .describe("Name other steps use to refer to this step's result as `$<id>`."),
  tool: z.string().min(1).describe("The tool this step calls; one of the scenario's tools."),
  args,
  variants: z
    .array(args)
    .default([])
    .describe('Other argument sets the model tries when it retries "with varied arguments".'),
  verify: toolCall
    .optional()
    .describe(
      'A read that tells the model whether this (side-effecting) step already happened: a result without `found: false` means it did.',
    ),
  alternatives: z
    .array(toolCall)
    .default([])
    .describe(
      'Other tools that can serve this step. The model turns to one when told to change approach or stop calling a tool, or now and then on its own after a failure (persona `alternatives.spontaneous`).',
    ),
});

export const scenarioSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'kebab-case, e.g. fetch-transform-write')
      .describe('The file name without .yaml.'),
    title: z.string().min(1),
    description: z.string().default(''),
    system: z
      .string()
      .default('You are an agent that completes tasks by calling tools.')
      .describe('The system prompt.'),
    prompt: z.string().min(1).describe('The task, as the first user message.'),
    tools: z
      .array(z.string().min(1))
      .min(1)
      .describe('Tools offered to the model, by name: catalogue tools, and tools of the tools_module.'),
    tools_module: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A module of your own tools (TypeScript or JavaScript, a path relative to this file): every export made with defineTool is a tool this scenario may name in `tools`.',
      ),
    dataset: z
      .strictObject({
        file: z
          .string()
          .min(1)
          .describe(
            'The rows: a .jsonl (one JSON object a line) or .csv (a header row) file, a path relative to this file.',
          ),
        task_id: z
          .string()
          .min(1)
          .optional()
          .describe("The column naming each row's task; absent: the row's number, from 1."),
      })
      .optional()
      .describe(
        'Many tasks from one scenario: each row of the file fills the {{column}} placeholders of system, prompt, history, world, plan and check, and seeds cycle through the rows (seed 1 the first). See docs/datasets.md.',
      ),
    budget_class: z.enum(Object.keys(BUDGET_CLASSES) as [BudgetClass, ...BudgetClass[]]).describe(
      `Task class; sets the tool budget: ${Object.entries(BUDGET_CLASSES)
        .map(([name, calls]) => `${name} ${calls}`)
        .join(', ')} calls.`,
    ),
    context_window: z
      .number()
      .int()
      .min(1000)
      .nullable()
      .default(null)
      .describe(
        "The context window of the simulated model in tokens, for every model id (a small window stands in for a long task); a request whose estimate exceeds it is refused with HTTP 413 request_too_large. Absent: each model's window from the model table.",
      ),
    persona: z.string().default('default').describe("The simulated model's persona: personas/<persona>.yaml."),
    trigger: z
      .enum(['user', 'untrusted'])
      .default('user')
      .describe(
        'Who started the session: its user, or an untrusted source such as an inbound email. Guards read it (session trust); the model never sees it.',
      ),
    impossible: z
      .boolean()
      .default(false)
      .describe('The task cannot be completed: the right outcome is to ask for help (escalate); no run can succeed.'),
    world: z
      .strictObject({
        records: z
          .record(z.string(), z.record(z.string(), json))
          .default({})
          .describe('Collections of records by id, e.g. users.u_1042, that tools read.'),
      })
      .describe('The starting world.'),
    faults: faultsSchema.default({ rates: {}, tools: {}, retry_after_ms: 1000, timeout_ms: 10_000, data: {} }),
    model_faults: modelFaultsSchema.default({
      rates: {},
      persistence: NO_MODEL_FAULTS.persistence,
      models: null,
      retry_after_ms: NO_MODEL_FAULTS.retryAfterMs,
      timeout_ms: NO_MODEL_FAULTS.timeoutMs,
      config_change: null,
    }),
    api: z
      .enum(['anthropic', 'openai-chat'])
      .default('anthropic')
      .describe(
        'The API the agent speaks to the model: Anthropic Messages, or OpenAI Chat Completions through the OpenAI-compatible edge (tool arguments arrive as strings there).',
      ),
    reply_faults: z
      .strictObject({
        malformed_arguments: z
          .strictObject(
            Object.fromEntries(
              MALFORMED_ARGUMENT_KINDS.map((kind) => [
                kind,
                probability
                  .optional()
                  .describe(`Chance per tool call that the model writes its arguments ${MALFORMED_WORDS[kind]}.`),
              ]),
            ),
          )
          .default({})
          .describe(
            'Chance per tool call of each way of writing the arguments wrong; one draw picks at most one. Only on api openai-chat, where arguments are text.',
          ),
      })
      .default({ malformed_arguments: {} })
      .describe('Faults in what the model writes, as opposed to the HTTP faults of model_faults.'),
    history: z
      .array(
        z.strictObject({
          role: z.enum(['user', 'assistant']),
          content: z.union([z.string(), z.array(z.record(z.string(), json))]),
        }),
      )
      .default([])
      .describe(
        'Messages of an earlier session the run starts from (before the prompt), in the Messages API shape; they may be malformed, as a hand-edited or truncated history is.',
      ),
    plan: z
      .strictObject({
        steps: z.array(planStepSchema).min(1).describe('The steps the task needs, in order.'),
        detours: z
          .array(toolCall)
          .default([])
          .describe(
            "Calls the model makes when it wanders off the plan to re-check things. None may read as a step after the first: the tool of such a step, or for a tool steps share, that step's arguments.",
          ),
        final: z.string().min(1).describe('What the model reports when the plan is done.'),
      })
      .describe("The simulated model's understanding of the task; it says nothing about faults or safeguards."),
    check: z
      .strictObject({
        outbox: z
          .array(z.strictObject({ key: z.string(), value: json }))
          .describe('Exactly the writes the outbox must hold, in order; a repeated write is harmful.'),
        forbidden: z
          .array(
            z.strictObject({
              key: z.string().describe('The outbox key of the harmful write (a recipient, an order id, a record key).'),
              value: z
                .record(z.string(), json)
                .optional()
                .describe('Fields the write must hold to count (each equal); absent: any write under the key.'),
              because: z
                .string()
                .min(1)
                .describe('Why such a write is harm, in words a reader of the results can check (the verdict reason).'),
            }),
          )
          .default([])
          .describe(
            'Writes that make a run harmful: the action an injected instruction asks for, data of the wrong entity, a stale value written over a newer one.',
          ),
      })
      .describe('The world the run must leave behind to succeed.'),
  })
  .superRefine((file, ctx) => {
    // Expecting nothing written makes a run that does nothing a success: only a task that
    // cannot be done (where asking for help is the right outcome) may expect an empty outbox.
    if (file.check.outbox.length === 0 && !file.impossible)
      ctx.addIssue({
        code: 'custom',
        path: ['check', 'outbox'],
        message:
          'at least one expected write; an empty outbox is expected only of a task marked impossible: true (otherwise a run that does nothing succeeds)',
      });
  })
  .meta({
    title: 'spiralbench scenario',
    description:
      "A spiralbench scenario: the task, its tools, world, faults, the simulated model's plan and the check on the final world.",
  });

export type ScenarioFile = z.output<typeof scenarioSchema>;
export type PlanStep = z.output<typeof planStepSchema>;
