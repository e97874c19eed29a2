import { pct } from './compare-format.js';
import type { Answer } from './recommendation.js';
import { interval, labelText, signedEffect } from './robustness-format.js';

/**
 * How the answer across scenarios depends on the mix, in sentences: on how many scenarios
 * each arm is best, the showcase scenarios and the answer without them, and which single
 * scenario would change the top arm. Nothing for a one-scenario sweep: it has no mix.
 */
export function mixSentences(answer: Answer): string[] {
  const { mix } = answer;
  const total = answer.scenarios.length;
  if (total < 2) return [];
  const top = answer.arms[0]?.arm;
  const lines: string[] = [];

  const ranked = [...mix.best]
    .filter((count) => count.best + count.tiedBest > 0)
    .sort((x, y) => y.best + y.tiedBest - (x.best + x.tiedBest) || y.best - x.best);
  const counts = ranked.map(
    (count) => `${count.arm} ${count.best + count.tiedBest}${count.tiedBest > 0 ? ` (${count.tiedBest} tied)` : ''}`,
  );
  const tiedNote =
    mix.allTied.length === 0
      ? ''
      : ` Every arm scores the same on ${mix.allTied.length === 1 ? '' : `${mix.allTied.length} scenarios: `}${mix.allTied.join(', ')}.`;
  lines.push(`Best or tied best, of ${total} scenarios: ${counts.join(', ')}.${tiedNote}`);

  if (mix.showcases.length === 0) {
    lines.push('No showcase scenario: no arm wins a scenario where a guard only it holds recorded events.');
  } else {
    const named = mix.showcases.map(
      (showcase) => `${showcase.scenario} (${showcase.arm}: ${showcase.guards.join(', ')})`,
    );
    const scenarios = new Set(mix.showcases.map((showcase) => showcase.scenario)).size;
    const without = mix.withoutShowcases;
    const rest =
      without === undefined
        ? 'no scenario is left without them.'
        : `without them (${without.scenarios.length} scenarios), ${without.top} is on top (${pct(without.rate)})${
            without.gain === null
              ? ''
              : `, ${signedEffect(without.gain.pooled, 'points')} over ${answer.baseline} ${interval(without.gain.low, without.gain.high, 'points')}, ${labelText(without.gain)}`
          }${without.top === top ? ', as with them.' : `, not ${top}.`}`;
    lines.push(
      `Showcase scenarios (${scenarios} of ${total}: the best arm there recorded events of a guard no other arm holds): ${named.join(', ')}; ${rest}`,
    );
  }

  lines.push(
    mix.leaveOneOut.length === 0
      ? `Leave-one-scenario-out: ${top} stays on top whichever scenario is left out.`
      : `Leave-one-scenario-out: ${top} is not on top without ${mix.leaveOneOut
          .map((change) => `${change.scenario} (then ${change.top})`)
          .join(', ')}.`,
  );
  return lines;
}
