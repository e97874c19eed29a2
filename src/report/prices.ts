import { CACHE_PRICE, MODEL_TABLE } from '../model/model-table.js';

/** List prices of a model, in US dollars per million tokens. */
export interface ModelPrice {
  /** The model id prefix the price applies to. */
  readonly prefix: string;
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/** The model a simulated run is priced as: what the simulator stands in for. */
export const DEFAULT_PRICED_MODEL = 'claude-sonnet-5-5';

/** Prices by model id prefix, from the model table (which also holds context windows). */
export const PRICES: readonly ModelPrice[] = MODEL_TABLE.map(({ prefix, inputPerMillion, outputPerMillion }) => ({
  prefix,
  inputPerMillion,
  outputPerMillion,
}));

/** How a sweep's model was priced. */
export interface PriceChoice {
  readonly price: ModelPrice;
  /** The model id the price was looked up for. */
  readonly pricedAs: string;
  /** Whether the sweep's model was simulated, so the price is the stand-in model's. */
  readonly simulated: boolean;
}

/**
 * The price for a sweep's model: real Claude ids by prefix, the simulated model as the
 * default model (flagged as such); undefined for an id the table does not know.
 *
 * @example
 * priceFor('claude-haiku-4-5').price.inputPerMillion // 1
 */
export function priceFor(model: string): PriceChoice | undefined {
  const simulated = model.startsWith('simulated');
  // Real clients are named '<provider>:<model id>' (e.g. 'anthropic:claude-haiku-4-5').
  const pricedAs = simulated ? DEFAULT_PRICED_MODEL : model.replace(/^[a-z-]+:/, '');
  const price = PRICES.find((entry) => pricedAs.startsWith(entry.prefix));
  return price === undefined ? undefined : { price, pricedAs, simulated };
}

/**
 * How a sweep's costs were made, in words: summed from the records (each call at its
 * model's price, the prompt cache's reads and writes as such) or, for results written
 * before records had costs, mean tokens × the list price.
 */
export function costMethod(price: PriceChoice, recorded: boolean): string {
  const list = `$${trim(price.price.inputPerMillion)} / $${trim(price.price.outputPerMillion)} per million input / output tokens`;
  const model = price.simulated ? `the simulated model priced as ${price.pricedAs}` : price.pricedAs;
  return recorded
    ? `summed from the runs' records, each call at its model's list price (${list}, ${model}; prompt-cache reads at ${CACHE_PRICE.read}× input, writes at ${CACHE_PRICE.write5m}×)`
    : `mean tokens per run × ${list} (${model})`;
}

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** Dollars for a number of input and output tokens. */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}

/** A dollar amount with precision that suits its size: $0.0421, $0.209, $1.27, $312. */
export function formatDollars(amount: number): string {
  if (amount === 0) return '$0';
  if (amount < 1) return `$${amount.toPrecision(3)}`;
  if (amount < 100) return `$${amount.toFixed(2)}`;
  return `$${Math.round(amount).toLocaleString('en-US')}`;
}
