import type { ChatCompletion } from 'openai/resources/chat/completions';
import { stream, type Rng, type StreamKey } from '../random/streams.js';

/**
 * How a model writes its tool arguments wrong over Chat Completions, as seen in practice.
 * New kinds go at the end: the order fixes which kind a draw picks.
 */
export const MALFORMED_ARGUMENT_KINDS = [
  /** The JSON inside a Markdown code fence. */
  'fenced',
  /** A comma after the last property. */
  'trailing_comma',
  /** A sentence before and after the JSON. */
  'prose',
  /** A Python dict: single quotes, True/False/None. */
  'single_quotes',
  /** The JSON stops part-way (the model stopped writing). */
  'truncated',
] as const;
export type MalformedArgumentKind = (typeof MALFORMED_ARGUMENT_KINDS)[number];
export type MalformedArgumentRates = Partial<Record<MalformedArgumentKind, number>>;

/** The shared token estimator's rate (src/model/token-estimate.ts): one token per 4 characters. */
const CHARS_PER_TOKEN = 4;

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`)
      .join(', ')}}`;
  return String(value);
}

/**
 * `json` (a JSON object's text) written wrong in the way `kind` says. A cut-off text keeps
 * between 30% and 90% of the characters, at least one and never all.
 */
export function malformArguments(kind: MalformedArgumentKind, json: string, tool: string, rng: Rng): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    // Already not JSON (a cut-off reply): it stays as it was written.
    return json;
  }
  switch (kind) {
    case 'fenced':
      return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
    case 'trailing_comma': {
      const pretty = JSON.stringify(value, null, 2);
      return pretty.endsWith('\n}') ? `${pretty.slice(0, -2)},\n}` : pretty;
    }
    case 'prose':
      return `Here are the arguments for ${tool}: ${json}\nI will check the result before moving on.`;
    case 'single_quotes':
      return pythonRepr(value);
    case 'truncated': {
      const keep = Math.min(json.length - 1, Math.max(1, Math.floor(json.length * (0.3 + 0.6 * rng.next()))));
      return json.slice(0, keep);
    }
  }
}

/** Cumulative thresholds in MALFORMED_ARGUMENT_KINDS order: one uniform draw picks at most one kind. */
function thresholds(rates: MalformedArgumentRates): ReadonlyArray<readonly [MalformedArgumentKind, number]> {
  let total = 0;
  const out: Array<readonly [MalformedArgumentKind, number]> = [];
  for (const kind of MALFORMED_ARGUMENT_KINDS) {
    const rate = rates[kind] ?? 0;
    if (rate <= 0) continue;
    total += rate;
    out.push([kind, total]);
  }
  if (total > 1 + 1e-9) throw new RangeError(`malformed-argument rates add up to ${total}, more than 1`);
  return out;
}

/**
 * Decides which tool calls of a reply the model writes malformed: each call of the reply
 * at turn t draws from the stream (run, `malformed-arguments`, t), so the same turn is
 * written the same way in-process and through the real client, on a retry too (the model
 * writes the same reply to the same request).
 */
export class MalformedArguments {
  readonly #thresholds: ReadonlyArray<readonly [MalformedArgumentKind, number]>;
  readonly #key: StreamKey;

  constructor(rates: MalformedArgumentRates, key: StreamKey) {
    this.#thresholds = thresholds(rates);
    this.#key = key;
  }

  /** The completion with the arguments of the chosen calls rewritten; unchanged when none is chosen. */
  apply(completion: ChatCompletion, turn: number): ChatCompletion {
    if (this.#thresholds.length === 0) return completion;
    const choice = completion.choices[0];
    const calls = choice?.message.tool_calls;
    if (choice === undefined || calls === undefined || calls.length === 0) return completion;
    const rng = stream(this.#key, 'malformed-arguments', turn);
    // The usage counts what was written: fences and prose cost tokens, a cut-off text fewer.
    let tokenDelta = 0;
    const written = calls.map((call) => {
      const draw = rng.next();
      const kind = this.#thresholds.find(([, upTo]) => draw < upTo)?.[0];
      if (kind === undefined || call.type !== 'function') return call;
      const text = malformArguments(kind, call.function.arguments, call.function.name, rng);
      tokenDelta +=
        Math.ceil(text.length / CHARS_PER_TOKEN) - Math.ceil(call.function.arguments.length / CHARS_PER_TOKEN);
      return { ...call, function: { ...call.function, arguments: text } };
    });
    const usage =
      completion.usage === undefined
        ? {}
        : {
            usage: {
              ...completion.usage,
              completion_tokens: completion.usage.completion_tokens + tokenDelta,
              total_tokens: completion.usage.total_tokens + tokenDelta,
            },
          };
    return {
      ...completion,
      choices: [{ ...choice, message: { ...choice.message, tool_calls: written } }, ...completion.choices.slice(1)],
      ...usage,
    };
  }
}
