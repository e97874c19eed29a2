/** Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The name's first word: `seed` of `--seed-count`, `fetch` of `fetch-transfrom-write`. */
function firstWord(name: string): string {
  return name.replace(/^-+/, '').split(/[-:+_]/)[0] ?? '';
}

/**
 * The known names a mistyped one most likely meant: the closest by edits when they share
 * more than 40% of the typed name's letters (a typo, a swap, a missing letter), else those
 * that start with its first word (`--seed-count` for `--seeds`). Empty when nothing is close.
 *
 * @example
 * closestNames('articel', ['none', 'article', 'all']) // ['article']
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  // A flag's dashes are not letters the user chose: they would make every flag look close.
  const bare = (name: string) => name.replace(/^-+/, '');
  const scored = known.map((name) => ({ name, distance: editDistance(bare(typed), bare(name)) }));
  const least = Math.min(...scored.map((entry) => entry.distance));
  const near = scored
    .filter((entry) => entry.distance === least && (bare(typed).length - least) / bare(typed).length > 0.4)
    .map((entry) => entry.name);
  if (near.length > 0) return near;
  const word = firstWord(typed);
  if (word.length < 3) return [];
  return known.filter((name) => firstWord(name) === word || firstWord(name) === `${word}s`);
}

/** ` (did you mean 'article'?)` for a mistyped name, or '' when no known name is close. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const names = closestNames(typed, known);
  return names.length === 0 ? '' : ` (did you mean ${names.map((name) => `'${name}'`).join(' or ')}?)`;
}
