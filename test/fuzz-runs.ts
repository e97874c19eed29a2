/**
 * How many cases each property test (`*.fuzz.test.ts`) generates: a small count in the
 * ordinary test run, FUZZ_RUNS when set (`npm run fuzz` sets 10,000).
 */
export function fuzzRuns(fallback = 200): number {
  const raw = process.env['FUZZ_RUNS'];
  const runs = raw === undefined ? Number.NaN : Number(raw);
  return Number.isSafeInteger(runs) && runs > 0 ? runs : fallback;
}
