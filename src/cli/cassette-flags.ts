import { resolve } from 'node:path';
import type { CassetteUse } from '../cassettes/cassette-client.js';
import type { RunRecord } from '../results/run-record-schema.js';
import { CassetteError, readCassetteIndex, writeCassetteIndex } from '../cassettes/cassette-file.js';
import { inProcessModel, type ModelSource } from '../run/model-source.js';
import { UserInputError } from '../user-input-error.js';

/** The flags a cassette combines with, or not. */
export interface CassetteFlags {
  readonly record?: string;
  readonly replay?: string;
  readonly recordMissing: boolean;
  readonly live: boolean;
  readonly stream: boolean;
  readonly sensitivity: boolean;
  readonly otel?: string;
  readonly model?: string;
  readonly provider?: string;
  readonly baseUrl?: string;
  readonly via: string;
}

/**
 * `--record <dir>` or `--replay <dir>`, checked against the rest of the command: one of
 * them, not live, not re-run with moved priors or for OpenTelemetry. Any arm
 * records: our loop's calls at its client, an agent's or a framework's on the wire.
 * A replay names no model: the cassette does.
 */
export function cassetteUse(flags: CassetteFlags): CassetteUse | undefined {
  const { record, replay } = flags;
  if (flags.recordMissing && replay === undefined)
    throw UserInputError.single(
      '--record-missing',
      '',
      'with --replay <dir>: the calls a replay lacks go to the live model',
    );
  if (record === undefined && replay === undefined) return undefined;
  if (record !== undefined && replay !== undefined)
    throw UserInputError.single('--replay', '', 'left out with --record: a sweep records a cassette or replays one');
  const flag = record !== undefined ? '--record' : '--replay';
  const refuse = (expected: string): never => {
    throw UserInputError.single(flag, '', expected);
  };
  if (flags.live) refuse('left out with --live (live runs are not recorded yet)');
  if (flags.sensitivity) refuse('left out with --sensitivity (its edge runs play other personas: other calls)');
  if (flags.otel !== undefined) refuse('left out with --otel (it runs the sweep again in this thread)');
  if (replay !== undefined && flags.recordMissing) return { mode: 'replay', dir: resolve(replay), recordMissing: true };
  if (replay !== undefined) {
    if (
      flags.model !== undefined ||
      flags.provider !== undefined ||
      flags.baseUrl !== undefined ||
      flags.via !== 'in-process'
    )
      refuse(
        'no model flags (--model, --provider, --base-url, --via): the replies come from the cassette, which names its model (with --record-missing, the calls it lacks go to the model they name)',
      );
    return { mode: 'replay', dir: resolve(replay) };
  }
  return { mode: 'record', dir: resolve(record!) };
}

/**
 * The model a replay answers from: the recorded sweep's, by name and model id, with no
 * client behind it (every call is answered from the cassette, with no key and no network).
 */
export function replaySource(use: CassetteUse): ModelSource {
  const index = indexOf(use);
  if (index === undefined)
    throw UserInputError.single(
      '--replay',
      '',
      `a cassette folder (${use.dir} holds no cassette.json; record one with --record)`,
    );
  // Not portable: worker threads rebuild a source from its kind alone and would lose the
  // recorded model id, which the requests name. Replies come from files, so one thread is quick.
  return Object.freeze({ ...inProcessModel(index.model_id ?? undefined), name: index.model, portable: null });
}

/**
 * Before a recording: the folder's index says which model its runs come from. A folder
 * that holds another model's cassette is refused (its runs would be mixed); the same
 * model's (a shard, a resumed or re-run sweep) is added to.
 */
export function startRecording(use: CassetteUse, model: ModelSource): void {
  const index = indexOf(use);
  if (index !== undefined && (index.model !== model.name || (index.model_id ?? undefined) !== model.modelId))
    throw UserInputError.single(
      use.mode === 'replay' ? '--record-missing' : '--record',
      '',
      `a folder that holds no other model's cassette (${use.dir} holds ${index.model}${index.model_id === null ? '' : ` (${index.model_id})`}; this sweep runs ${model.name}); name another folder`,
    );
  writeCassetteIndex(use.dir, model.name, model.modelId);
}

function indexOf(use: CassetteUse) {
  try {
    return readCassetteIndex(use.dir);
  } catch (error) {
    if (error instanceof CassetteError)
      throw UserInputError.single(
        use.mode === 'replay' ? '--replay' : '--record',
        '',
        `a cassette folder: ${error.message}`,
      );
    throw error;
  }
}

/** Runs of a replay that asked the cassette what it does not hold, and the first one's words. */
export interface ReplayWatch {
  readonly onRecord: (record: RunRecord) => void;
  /** A line for stderr when some runs did not replay, else undefined. */
  readonly verdict: () => string | undefined;
}

const CASSETTE_ERRORS: ReadonlySet<string> = new Set(['CassetteMismatchError', 'CassetteError']);

/**
 * Watches a replay's records for runs the cassette could not answer (the agent, its prompt
 * or its tools changed since the recording, or a run was never recorded): those runs are
 * failed, and the sweep says so at the end, naming the first.
 */
export function watchReplay(): ReplayWatch {
  let missed = 0;
  let runs = 0;
  let first: string | undefined;
  return {
    onRecord(record) {
      runs += 1;
      const reason = record.failure_reason;
      if (reason === undefined || !CASSETTE_ERRORS.has(reason.error_class)) return;
      missed += 1;
      first ??= reason.message;
    },
    verdict: () =>
      missed === 0
        ? undefined
        : `replay: ${missed} of ${runs} runs asked for what the cassette does not hold, and failed; the first: ${first}`,
  };
}
