import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { defineGuard } from '../define-guard.js';
import type { Guard } from '../guard.js';
import { JOURNAL_FIELDS, JOURNAL_SECTIONS, type JournalField, type RunJournal } from '../journal/run-journal.js';

export const GET_JOURNAL_TOOL = 'get_run_journal';
export const UPDATE_JOURNAL_TOOL = 'update_run_journal';
export const APPEND_JOURNAL_TOOL = 'append_run_journal_entry';

const JOURNAL_TOOLS: readonly Tool[] = [
  {
    name: GET_JOURNAL_TOOL,
    description:
      'Read the whole run journal: the objective, current state, next action, and the verified findings, decisions, artifacts, open questions and blockers recorded so far.',
    input_schema: { type: 'object', properties: {} },
  },
  {
    name: UPDATE_JOURNAL_TOOL,
    description:
      'Set the objective, the current state or the next action for whoever continues the run. Fields left out keep their value.',
    input_schema: {
      type: 'object',
      properties: Object.fromEntries(JOURNAL_FIELDS.map((field) => [field, { type: 'string' }])),
    },
  },
  {
    name: APPEND_JOURNAL_TOOL,
    description:
      'Record one entry in the run journal. Record every verified finding you will need later: the journal survives when older messages are summarised or dropped to fit the context window.',
    input_schema: {
      type: 'object',
      properties: { section: { type: 'string', enum: [...JOURNAL_SECTIONS] }, text: { type: 'string' } },
      required: ['section', 'text'],
    },
  },
];

export interface RunJournalOptions {
  /** The run's journal (shared with compaction, which injects it after every summary). */
  readonly journal: RunJournal;
  /** Characters of the journal shown in the system prompt. @default 500 */
  readonly digestChars?: number;
}

/**
 * The run journal: offers the three journal tools and answers them itself (they touch no
 * world), and shows a digest of the journal in the system prompt of every request once
 * it has something in it. Compaction injects the whole journal after its summary.
 *
 * @example
 * runJournal({ journal: new RunJournal(), digestChars: 500 })
 */
export function runJournal({ journal, digestChars = runJournalGuard.defaults.digestChars }: RunJournalOptions): Guard {
  return {
    name: 'journal',
    tools: JOURNAL_TOOLS,
    prepareRequest(request) {
      if (journal.isEmpty) return request;
      const digest = journal.digest(digestChars);
      const system =
        typeof request.system === 'string' || request.system === undefined
          ? `${request.system ?? ''}\n\n${digest}`.trim()
          : [...request.system, { type: 'text' as const, text: digest }];
      return { ...request, system };
    },
    beforeToolCall(call) {
      const input = call.input as Record<string, unknown>;
      if (call.name === GET_JOURNAL_TOOL)
        return { kind: 'answer', content: JSON.stringify(journal.toRecord()), isError: false };
      if (call.name === UPDATE_JOURNAL_TOOL) {
        const fields: Partial<Record<JournalField, string>> = {};
        for (const field of JOURNAL_FIELDS) if (typeof input[field] === 'string') fields[field] = input[field];
        journal.update(fields);
        return { kind: 'answer', content: 'Journal updated.', isError: false };
      }
      if (call.name === APPEND_JOURNAL_TOOL) {
        const section = JOURNAL_SECTIONS.find((name) => name === input['section']);
        if (section === undefined || typeof input['text'] !== 'string') {
          return {
            kind: 'answer',
            content: `Error: ${APPEND_JOURNAL_TOOL} needs a section (${JOURNAL_SECTIONS.join(', ')}) and a text.`,
            isError: true,
          };
        }
        journal.append(section, input['text']);
        return { kind: 'answer', content: `Recorded in ${section}.`, isError: false };
      }
      return undefined;
    },
  };
}

/** The run journal in an arm: keeps the run's journal, which compaction shows after every summary. */
export const runJournalGuard = defineGuard({
  name: 'journal',
  settings: z.strictObject({ digestChars: z.number().int().min(0).default(500) }),
  build: ({ digestChars }, run) => runJournal({ journal: run.journal, digestChars }),
});
