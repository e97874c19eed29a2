/**
 * The real clock, for provenance (when a sweep ran) and for telling the user how long
 * something took. Never read inside a run: runs use the VirtualClock, and nothing read
 * here may reach runs.jsonl, runs.csv, summary.json or traces.jsonl.
 */
export const wallClock = {
  /** Now, as an ISO 8601 string. */
  iso(): string {
    return new Date().toISOString();
  },
  /** Milliseconds from an arbitrary origin, for durations. */
  ms(): number {
    return performance.now();
  },
};
