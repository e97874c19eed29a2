/** The journal's list sections, appended to one entry at a time. */
export const JOURNAL_SECTIONS = ['verified_findings', 'decisions', 'artifacts', 'open_questions', 'blockers'] as const;
export type JournalSection = (typeof JOURNAL_SECTIONS)[number];

/** The journal's single-value fields, replaced by an update. */
export const JOURNAL_FIELDS = ['objective', 'current_state', 'handoff_next_action'] as const;
export type JournalField = (typeof JOURNAL_FIELDS)[number];

/** The journal as written into results (fixed key order). */
export type JournalRecord = { readonly [F in JournalField]: string } & {
  readonly [S in JournalSection]: readonly string[];
};

/**
 * What a run has established, kept outside the transcript by the journal tools, so that
 * compaction and iteration-limit halts do not lose findings: objective, current state, the
 * next action for whoever picks the run up, and lists of verified findings, decisions,
 * artifacts, open questions and blockers. Per run; the loop's guards write and read it.
 *
 * @example
 * const journal = new RunJournal();
 * const guards = [runJournal({ journal }), contextCompaction({ contextWindow: 200_000 })];
 * // after the run: journal.render() is what the agent recorded
 */
export class RunJournal {
  readonly #fields: Record<JournalField, string> = { objective: '', current_state: '', handoff_next_action: '' };
  readonly #sections: Record<JournalSection, string[]> = {
    verified_findings: [],
    decisions: [],
    artifacts: [],
    open_questions: [],
    blockers: [],
  };
  #version = 0;
  #rendered: { readonly version: number; readonly text: string } | null = null;

  update(fields: Partial<Record<JournalField, string>>): void {
    for (const field of JOURNAL_FIELDS) {
      const value = fields[field];
      if (value !== undefined) this.#fields[field] = value;
    }
    this.#version += 1;
  }

  append(section: JournalSection, text: string): void {
    this.#sections[section].push(text);
    this.#version += 1;
  }

  get isEmpty(): boolean {
    return (
      JOURNAL_FIELDS.every((field) => this.#fields[field] === '') &&
      JOURNAL_SECTIONS.every((section) => this.#sections[section].length === 0)
    );
  }

  toRecord(): JournalRecord {
    return {
      ...this.#fields,
      ...Object.fromEntries(JOURNAL_SECTIONS.map((section) => [section, [...this.#sections[section]]])),
    } as JournalRecord;
  }

  /** The whole journal as plain text: one line per field, one `- ` line per entry. */
  render(): string {
    if (this.#rendered?.version === this.#version) return this.#rendered.text;
    const lines = ['Run journal (kept with the journal tools):'];
    for (const field of JOURNAL_FIELDS) if (this.#fields[field] !== '') lines.push(`${field}: ${this.#fields[field]}`);
    for (const section of JOURNAL_SECTIONS) {
      if (this.#sections[section].length === 0) continue;
      lines.push(`${section}:`, ...this.#sections[section].map((entry) => `- ${entry}`));
    }
    const text = lines.join('\n');
    this.#rendered = { version: this.#version, text };
    return text;
  }

  /** The journal cut to at most `chars` characters, for the system prompt. */
  digest(chars: number): string {
    const text = this.render();
    return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
  }
}
