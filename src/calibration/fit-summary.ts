import { PERSONA_PARAMETERS, PERSONA_PRIORS } from '../model/simulated/persona-priors.js';
import { type Calibration, memberValues, spread, targetSpreads } from './calibrate.js';

const number = (value: number): string =>
  Number.isNaN(value)
    ? '—'
    : Math.abs(value) >= 1000
      ? Math.round(value).toLocaleString('en-US')
      : String(Number(value.toPrecision(3)));

const range = (low: number, high: number): string => `${number(low)}–${number(high)}`;

const spreadText = ({ median, min, max }: { median: number; min: number; max: number }): string =>
  `${number(median)} [${range(min, max)}]`;

/** Lines padded into columns. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** The interquartile range of `values` (R type 7 quantiles). */
function interquartile(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const position = (sorted.length - 1) * q;
    const low = Math.floor(position);
    const high = Math.min(low + 1, sorted.length - 1);
    return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
  };
  return at(0.75) - at(0.25);
}

/**
 * The fit in a few tables: how it went (candidates, the tolerance schedule, acceptance),
 * each target's spread across members against its band, and each parameter's prior
 * against its posterior, with how much the targets narrowed it.
 */
export function renderFitSummary(calibration: Calibration): string {
  const { options, iterations, candidates } = calibration;
  const members = calibration.members.length;
  const last = iterations[iterations.length - 1];
  const lines = [
    `Fitted ${members} personas to ${options.scenario.id} (arm none) · seed ${options.seed} · ${options.seedsPerCandidate} seeds a candidate`,
    `ABC-SMC: ${candidates.toLocaleString('en-US')} candidates simulated (${(candidates * options.seedsPerCandidate).toLocaleString('en-US')} runs) in ${iterations.length} iterations; tolerance ${iterations.map((iteration) => number(iteration.epsilon)).join(' → ')}`,
    `acceptance rate ${((100 * members) / candidates).toFixed(2)}% (${members} members of ${candidates.toLocaleString('en-US')} candidates)${last === undefined ? '' : ` · moves accepted at tolerance 1: ${((100 * last.accepted) / last.proposals).toFixed(1)}%`} · distinct members ${members - calibration.duplicates}`,
    '',
    ...columns([
      ['target', 'value', 'band', 'fitting seeds: median [range]', 'fresh seeds: median [range]', 'pooled fresh'],
      ...targetSpreads(calibration).map((row) => [
        row.name,
        row.target === undefined ? '(not a target)' : number(row.target),
        row.band === undefined ? '' : range(row.band[0], row.band[1]),
        spreadText(row.fitting),
        spreadText(row.fresh),
        number(row.pooled),
      ]),
    ]),
    `fitting seeds: the ${options.seedsPerCandidate} runs each member was accepted on. Fresh seeds: ${options.seedsPerCandidate} other runs of each member;`,
    `pooled: all of them, as \`run --ensemble <file> -a none -n ${members * options.seedsPerCandidate}\` runs them. A member's fresh statistics`,
    'can leave the band: a statistic of a few hundred runs is noisy (docs/calibration.md).',
    '',
    ...columns([
      ['parameter', 'basis', 'prior', 'posterior: median [range]', 'spread'],
      ...PERSONA_PARAMETERS.map((parameter) => {
        const prior = PERSONA_PRIORS[parameter];
        const values = memberValues(calibration, parameter).sort((a, b) => a - b);
        const [low, high] = prior.range;
        // A uniform prior's interquartile range is half its width.
        const share = (high - low) / 2 === 0 ? 0 : interquartile(values) / ((high - low) / 2);
        return [parameter, prior.basis, range(low, high), spreadText(spread(values)), `${Math.round(100 * share)}%`];
      }),
    ]),
    "spread: the members' interquartile range as a share of the prior's. Near 100%, the targets did not narrow",
    'the parameter. Parameters with basis `prior` are not identified by these targets (on the reference',
    "scenario's baseline they change no run): their posterior is their prior, drawn and carried along.",
  ];
  return lines.join('\n');
}
