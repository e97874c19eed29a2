import { canonicalJson } from './canonical-json.js';
import { basename } from 'node:path';
import { RATE_FAULT_KINDS } from '../faults/fault-profile.js';
import { DATA_FAULT_KINDS } from '../tools/tool-fault.js';
import { MALFORMED_ARGUMENT_KINDS } from '../faults/malformed-arguments.js';
import { MODEL_FAULT_KINDS } from '../faults/model-faults.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import type { z } from 'zod';
import type { InputProblem } from '../user-input-error.js';
import { stepServed } from './plan-matching.js';
import { parseReference, referencesIn } from './references.js';
import type { ScenarioFile } from './schema.js';
import { TOOL_CATALOGUE } from './tool-catalogue.js';

type Loose = Record<string, unknown>;
const asObject = (value: unknown): Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Cross-field checks the schema alone cannot express. They read the raw file
 * defensively, so they run even when the schema check failed and every problem of a
 * file is reported in one go.
 */
export function referenceProblems(
  path: string,
  raw: unknown,
  own: { readonly path: string; readonly tools: ReadonlyMap<string, ToolSpec> } | undefined,
): InputProblem[] {
  const problems: InputProblem[] = [];
  const file = asObject(raw);
  const tools = asArray(file['tools']).filter((tool): tool is string => typeof tool === 'string');
  const offered = new Set(tools);
  tools.forEach((tool, i) => {
    if (!TOOL_CATALOGUE.has(tool) && own?.tools.has(tool) !== true) {
      const yours =
        own === undefined
          ? 'or one of your own (made with defineTool, exported by the module named in tools_module)'
          : `or a tool of tools_module '${own.path}' (${[...own.tools.keys()].join(', ')})`;
      problems.push({
        source: path,
        field: `tools.${i}`,
        expected: `a catalogue tool (${[...TOOL_CATALOGUE.keys()].join(', ')}) ${yours}, got '${tool}'`,
      });
    }
  });
  const seen = new Set<string>();
  const checkCall = (field: string, call: Loose) => {
    const tool = call['tool'];
    if (typeof tool === 'string' && !offered.has(tool))
      problems.push({ source: path, field: `${field}.tool`, expected: `one of the scenario's tools, got '${tool}'` });
    for (const reference of referencesIn(call['args'], `${field}.args`)) {
      const parsed = parseReference(reference.text);
      if (parsed === null || !seen.has(parsed.step)) {
        problems.push({
          source: path,
          field: reference.field,
          expected: `a reference to an earlier step ($<step id> or $<step id>.<field>...), got '${reference.text}'`,
        });
      }
    }
  };
  const plan = asObject(file['plan']);
  asArray(plan['steps']).forEach((entry, i) => {
    const step = asObject(entry);
    checkCall(`plan.steps.${i}`, step);
    asArray(step['variants']).forEach((variant, j) =>
      checkCall(`plan.steps.${i}.variants.${j}`, { tool: step['tool'], args: variant }),
    );
    if (step['verify'] !== undefined) checkCall(`plan.steps.${i}.verify`, asObject(step['verify']));
    asArray(step['alternatives']).forEach((call, j) => checkCall(`plan.steps.${i}.alternatives.${j}`, asObject(call)));
    const id = step['id'];
    if (typeof id === 'string' && seen.has(id))
      problems.push({
        source: path,
        field: `plan.steps.${i}.id`,
        expected: `an id no earlier step has, got '${id}' again`,
      });
    if (typeof id === 'string') seen.add(id);
  });
  asArray(plan['detours']).forEach((call, i) => checkCall(`plan.detours.${i}`, asObject(call)));
  const faults = asObject(file['faults']);
  const checkRates = (field: string, rates: Loose, kinds: readonly string[] = RATE_FAULT_KINDS) => {
    // One draw picks at most one fault, so the rates of one tool cannot add up to more than
    // 1. A rate that is wrong on its own is the schema check's to report.
    const values = kinds.map((kind) => rates[kind]).filter((rate) => rate !== undefined);
    if (!values.every((rate): rate is number => typeof rate === 'number' && rate >= 0 && rate <= 1)) return;
    const total = values.reduce((sum, rate) => sum + rate, 0);
    if (total > 1 + 1e-9)
      problems.push({
        source: path,
        field,
        expected: `fault rates that add up to at most 1, got ${Number(total.toFixed(6))}`,
      });
  };
  checkRates('faults.rates', asObject(faults['rates']));
  for (const [tool, toolFaults] of Object.entries(asObject(faults['tools']))) {
    if (!offered.has(tool))
      problems.push({ source: path, field: `faults.tools.${tool}`, expected: "one of the scenario's tools" });
    checkRates(`faults.tools.${tool}`, asObject(toolFaults));
  }
  for (const [tool, dataFaults] of Object.entries(asObject(faults['data']))) {
    const field = `faults.data.${tool}`;
    if (!offered.has(tool)) problems.push({ source: path, field, expected: "one of the scenario's tools" });
    const rates = Object.fromEntries(
      Object.entries(asObject(dataFaults)).map(([kind, settings]) => [kind, asObject(settings)['rate']]),
    );
    checkRates(field, rates, DATA_FAULT_KINDS);
    const goal = asObject(asObject(dataFaults)['injected_instructions'])['goal'];
    if (goal !== undefined && !offered.has(String(asObject(goal)['tool'])))
      // An attack may name a tool the agent lacks, but then it can never be acted on: say so.
      problems.push({
        source: path,
        field: `${field}.injected_instructions.goal.tool`,
        expected: "one of the scenario's tools (an action the agent could take)",
      });
  }
  const check = asObject(file['check']);
  asArray(check['forbidden']).forEach((entry, i) => {
    const rule = asObject(entry);
    const fields = Object.entries(asObject(rule['value']));
    const clash = asArray(check['outbox']).some((write) => {
      const expected = asObject(write);
      const value = asObject(expected['value']);
      return (
        expected['key'] === rule['key'] &&
        fields.every(([field, v]) => canonicalJson(value[field] ?? null) === canonicalJson(v))
      );
    });
    // A rule every correct run breaks would call each success harm.
    if (clash)
      problems.push({
        source: path,
        field: `check.forbidden.${i}`,
        expected: 'a write the expected outbox does not hold (this rule matches one of check.outbox)',
      });
  });
  checkRates('model_faults.rates', asObject(asObject(file['model_faults'])['rates']), MODEL_FAULT_KINDS);
  const malformed = asObject(asObject(file['reply_faults'])['malformed_arguments']);
  checkRates('reply_faults.malformed_arguments', malformed, MALFORMED_ARGUMENT_KINDS);
  const writesMalformed = Object.values(malformed).some((rate) => typeof rate === 'number' && rate > 0);
  if (writesMalformed && file['api'] !== 'openai-chat') {
    // Over the Messages API the arguments arrive as an object: there is nothing to write wrong.
    problems.push({
      source: path,
      field: 'reply_faults.malformed_arguments',
      expected: `api: openai-chat (arguments are text only there), got api: ${String(file['api'] ?? 'anthropic')}`,
    });
  }
  const id = file['id'];
  // A scenario file may be .yaml, .yml or .json: its id is its name without that extension.
  const extension = /\.(?:ya?ml|json)$/i.exec(path)?.[0] ?? '';
  const named = basename(path, extension);
  if (typeof id === 'string' && named !== id) {
    problems.push({
      source: path,
      field: 'id',
      expected: `the file name without ${extension === '' ? 'its extension' : extension} ('${named}'), got '${id}'`,
    });
  }
  return problems;
}

/** The plan's own calls: each step's arguments and variants, when they hold no reference (those are the calls as sent). */
function planCalls(plan: ScenarioFile['plan']): ReadonlyMap<string, string> {
  const calls = new Map<string, string>();
  for (const step of plan.steps)
    for (const args of [step.args, ...step.variants])
      if (!JSON.stringify(args).includes('"$')) calls.set(canonicalJson({ tool: step.tool, args }), step.id);
  return calls;
}

/**
 * A detour is a call off the plan: a re-check another way (another record, another query,
 * another tool, another form of a read). Two kinds are refused:
 * - the plan's own exact call: a spiral made of it would be identical re-sends, which
 *   real agents seldom make (docs/simulated-model.md, "Evidence"), and a guard that refuses
 *   repeats would earn its gain on behaviour the scenario invented;
 * - a call the simulated model would read as serving a step after the first (the same
 *   tool, and for a shared tool the same arguments): taken early, it would make the model
 *   believe it had skipped ahead.
 */
export function detourProblems(path: string, plan: ScenarioFile['plan']): InputProblem[] {
  const own = planCalls(plan);
  return plan.detours.flatMap((detour, i) => {
    const field = `plan.detours.${i}`;
    const same = own.get(canonicalJson({ tool: detour.tool, args: detour.args }));
    if (same !== undefined)
      return [
        {
          source: path,
          field,
          expected: `a call off the plan; this one is the call of step '${same}' itself (re-check another way: another record, query, tool or form of the read)`,
        },
      ];
    const step = stepServed(plan.steps, 1, detour.tool, detour.args);
    if (step === -1) return [];
    const id = plan.steps[step]?.id ?? '';
    return [
      {
        source: path,
        field,
        expected: `a call off the plan; this one would be read as step '${id}' (use another tool, or for a tool steps share, arguments of the first step only)`,
      },
    ];
  });
}

/** A schema check's issues as input problems of `source`, each at its field's dotted path. */
export function zodProblems(source: string, error: z.ZodError): InputProblem[] {
  return error.issues.map((issue) => ({
    source,
    field: issue.path.map(String).join('.'),
    expected: issue.message,
  }));
}
