/**
 * The files `spiralbench init` writes: a scenario whose tools come from a tools module of
 * the user's own, that module (one async read, one side-effecting write), and a README of
 * the next commands. Each is a function of where it lands, so the paths it prints are the
 * ones the user will type.
 */
export interface ScaffoldFile {
  /** Relative to the folder init writes to. */
  readonly name: string;
  readonly text: string;
}

/** The scenario's id: its file name without .yaml. */
export const SCAFFOLD_SCENARIO_ID = 'customer-note';

/**
 * @param schemaPath the published scenario JSON Schema, relative to the scenario file, for
 *   editors (`yaml-language-server`).
 * @param runScenario the scenario path as typed from where init was run.
 */
export function scaffoldFiles(schemaPath: string, runScenario: string, dataset = false): readonly ScaffoldFile[] {
  return [
    { name: `${SCAFFOLD_SCENARIO_ID}.yaml`, text: scenarioText(schemaPath, dataset ? DATASET_TASK : ONE_TASK) },
    ...(dataset ? [{ name: SCAFFOLD_DATASET, text: DATASET_ROWS }] : []),
    { name: 'tools.ts', text: TOOLS_TEXT },
    { name: 'README.md', text: readmeText(runScenario, dataset) },
  ];
}

/** The dataset `init --dataset` writes beside the scenario: one task a row. */
export const SCAFFOLD_DATASET = `${SCAFFOLD_SCENARIO_ID}.tasks.csv`;

/** The task-specific lines of the scenario: one customer, or `{{column}}` placeholders each row fills. */
interface TaskText {
  readonly head: string;
  readonly customer: string;
  readonly record: string;
  readonly final: string;
  readonly expected: string;
}

const ONE_TASK: TaskText = {
  head: '',
  customer: 'c_7',
  record: '{ id: c_7, name: Ada Lovelace, plan: pro, email: ada@example.com }',
  final: 'Saved a note for Ada Lovelace (plan pro).',
  expected: '{ name: Ada Lovelace, plan: pro }',
};

const DATASET_TASK: TaskText = {
  head: `# One task a row of ${SCAFFOLD_DATASET}: each row fills the {{column}} placeholders below,
# and seeds cycle through the rows (seed 1 the first). pass^k is read per task.
dataset:
  file: ${SCAFFOLD_DATASET}
  task_id: customer_id
`,
  customer: '"{{customer_id}}"',
  record: '{ id: "{{customer_id}}", name: "{{name}}", plan: "{{plan}}", email: "{{email}}" }',
  final: 'Saved a note for {{name}} (plan {{plan}}).',
  expected: '{ name: "{{name}}", plan: "{{plan}}" }',
};

const DATASET_ROWS = `customer_id,name,plan,email
c_1,Ada Lovelace,pro,ada@example.com
c_2,Alan Turing,free,alan@example.com
c_3,Katherine Johnson,team,katherine@example.com
c_4,Edsger Dijkstra,pro,edsger@example.com
c_5,Barbara Liskov,team,barbara@example.com
c_6,Donald Knuth,free,don@example.com
`;

function scenarioText(schemaPath: string, task: TaskText): string {
  const customer = task.customer.replaceAll('"', '');
  return `# yaml-language-server: $schema=${schemaPath}
# A task for the simulated model, played with your own tools (tools.ts) failing on purpose.
# The id must equal this file's name without .yaml: rename both together.
id: ${SCAFFOLD_SCENARIO_ID}
title: Fetch a customer and save a note about them
${task.head}prompt: >
  Fetch customer ${customer} with get_customer, then save a note for them with save_note whose
  note holds the customer's name and plan.
# Your tools: every export of this module made with defineTool. Name the ones offered below.
tools_module: ./tools.ts
tools: [get_customer, save_note]
budget_class: standard
world:
  records:
    customers:
      ${task.customer}: ${task.record}
      c_8: { id: c_8, name: Grace Hopper, plan: team, email: grace@example.com }
# Seeded faults, drawn once per execution: the same seed meets the same faults in every arm.
faults:
  rates: { timeout: 0.25, rate_limit: 0.05, malformed_json: 0.05 }
  tools:
    # A note that was saved but whose answer was lost: a retry writes it twice.
    save_note: { timeout: 0.2, partial_write: 0.1 }
# What the simulated model understands of the task (it knows nothing of faults or safeguards).
plan:
  steps:
    - id: fetch
      tool: get_customer
      args: { customer_id: ${task.customer} }
    - id: save
      tool: save_note
      args: { customer_id: ${task.customer}, note: { name: $fetch.name, plan: $fetch.plan } }
  detours:
    - { tool: get_customer, args: { customer_id: c_8 } }
  final: ${task.final}
# Judged on the world, never on what the model says: exactly this write, once.
check:
  outbox:
    - { key: ${task.customer}, value: ${task.expected} }
`;
}

const TOOLS_TEXT = `import { defineTool, invalidInput, notFound } from 'spiralbench';

/**
 * A read, as your agent's own tool would make it: async, reading the scenario's world.
 * Throw notFound / invalidInput for a request the tool refuses; the model sees a
 * permanent error, as it would from a real service.
 */
export const getCustomer = defineTool({
  name: 'get_customer',
  description: 'Fetch one customer record by id from the CRM. Returns the record as JSON.',
  input_schema: {
    type: 'object',
    properties: { customer_id: { type: 'string', description: 'The customer id, e.g. "c_7".' } },
    required: ['customer_id'],
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 200,
  run: async (input, world) => {
    const id = String(input.customer_id);
    const customer = world.records.customers?.[id];
    if (customer === undefined) throw notFound(\`no customer with id '\${id}'\`);
    return customer;
  },
});

/**
 * A write: side-effecting, so the harness never retries it on its own. Writes go to the
 * world's outbox, which the scenario's check judges; a write made twice shows up twice.
 */
export const saveNote = defineTool({
  name: 'save_note',
  description: 'Save a note about a customer. Each call appends one note.',
  input_schema: {
    type: 'object',
    properties: {
      customer_id: { type: 'string', description: 'The customer the note is about.' },
      note: { type: 'object', description: 'The note to save.' },
    },
    required: ['customer_id', 'note'],
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 300,
  run: async (input, world) => {
    const note = input.note;
    if (typeof note !== 'object' || note === null) throw invalidInput("'note' must be an object");
    // A copy as JSON: what the outbox keeps cannot change with the caller's object.
    world.outbox.push({ key: String(input.customer_id), value: JSON.parse(JSON.stringify(note)) });
    return { ok: true, notes: world.outbox.length };
  },
});
`;

function readmeText(scenario: string, dataset: boolean): string {
  const rows = dataset
    ? `- \`${SCAFFOLD_DATASET}\`: the tasks, one a row; each row fills the scenario's \`{{column}}\`
  placeholders. Add rows to add tasks; \`validate\` checks every one.
`
    : '';
  return `# Your spiralbench scenario

- \`${SCAFFOLD_SCENARIO_ID}.yaml\`: the task, its world, its faults, the simulated model's plan and
  the check on the final world. Its \`id:\` must equal its file name without \`.yaml\`; to make
  another scenario, copy the file under a new name and change the id to match.
${rows}- \`tools.ts\`: your tools, made with \`defineTool\`; the scenario names them in \`tools:\`.

Next:

\`\`\`sh
npx spiralbench validate ${scenario}
npx spiralbench run -s ${scenario} -a none,article -n 20
npx spiralbench replay -s ${scenario} -a none --seed 3    # one run, step by step
\`\`\`

Your tools behind the same faults in your own tests, without the harness:

\`\`\`ts
import { withFaults } from 'spiralbench';
import { getCustomer } from './tools.js';

const world = { records: { customers: { c_7: { id: 'c_7', name: 'Ada Lovelace', plan: 'pro' } } }, outbox: [] };
const flaky = withFaults(getCustomer, { rates: { timeout: 0.25 } }, { seed: 7, world });
await flaky({ customer_id: 'c_7' }); // the customer, or a ToolError on an injected fault
\`\`\`

See docs/tools.md in the spiralbench package for the whole story.
`;
}
