import { UserInputError } from '../../user-input-error.js';
import { type Command, InvalidArgumentError } from 'commander';
import { renderBehaviourTable } from '../../behaviour/behaviour-table.js';
import { GROUPINGS, type Grouping, measureBehaviour } from '../../behaviour/measure-behaviour.js';
import { replayProgress } from '../replay-progress.js';

interface BehaviourFlags {
  readonly by?: Grouping;
  readonly json: boolean;
}

function grouping(value: string): Grouping {
  if (!(GROUPINGS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${GROUPINGS.join(', ')}.`);
  return value as Grouping;
}

const HELP_AFTER = `
What it measures (docs/behaviour.md): each tool result is read for what it tells the agent
(good, a permanent error, a transient one, a malformed body, a harness refusing the call,
another error), and the table shows what the agent did next: the identical call again,
the same tool with other arguments, another tool, or stop / ask for help. Below it: the
share of calls identical to the call just before, the share of runs over 50 calls holding
an immediate repeat pair, and how much explicit "do not retry" advice cuts identical
retries after a permanent error.

Sources:
  a results folder    runs of built-in arms on the simulated model are run again from their
                      seeds (as replay does); a real model's or a served agent's runs are
                      read from traces.jsonl (the traced runs only, and it says so)
  a trajectory file   JSONL, one run a line: {"id", "turns": [{"calls": [{"name", "input",
                      "result": {"text", "is_error"}}]} | {"text"}]}
  an OTLP/JSON file   tool spans with gen_ai.tool.call.arguments and gen_ai.tool.call.result

Examples:
  spiralbench run -s fetch-transform-write -a none,classify,repeat -n 300 --ensemble default -o results/bh
  spiralbench behaviour results/bh
  spiralbench behaviour my-agent-trajectories.jsonl --json`;

/** `spiralbench behaviour <source>`: the behaviour statistics of a sweep's or a real agent's runs. */
export function registerBehaviour(program: Command): void {
  program
    .command('behaviour')
    .description(
      "Measure how an agent behaves after each kind of tool result (identical retries, other arguments, other tools, stopping), from a sweep's runs or a real agent's trajectories, to compare the simulated model with a real one.",
    )
    .argument('<source>', 'a results folder, a trajectory JSONL file or an OTLP/JSON trace file')
    .option(
      '--by <grouping>',
      `one table per arm, per scenario, or none for all runs together (${GROUPINGS.join(', ')}; default: arm for a results folder, none for a file)`,
      grouping,
    )
    .option('--json', 'print the statistics as JSON (shares from 0 to 1, null where there was nothing to count)', false)
    .addHelpText('after', HELP_AFTER)
    .action(async (source: string, flags: BehaviourFlags) => {
      const progress = replayProgress('runs run again');
      let measurement: Awaited<ReturnType<typeof measureBehaviour>>;
      try {
        measurement = await measureBehaviour(source, {
          ...(flags.by === undefined ? {} : { by: flags.by }),
          onProgress: progress.update,
        });
      } finally {
        progress.stop();
      }
      const { groups, by } = measurement;
      const coverage = measurement.source;
      // An empty file or folder would print an empty table and pass for a measurement.
      if (groups.every((group) => group.statistics.runs === 0))
        throw UserInputError.single(source, '', 'runs or trajectories to measure; this holds none');
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              source,
              kind: coverage.kind,
              runs: coverage.runs,
              read: coverage.read,
              ...(coverage.note === undefined ? {} : { note: coverage.note }),
              by,
              groups: groups.map((group) => ({ [by === 'none' ? 'group' : by]: group.key, ...group.statistics })),
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      const tables = groups.map((group) =>
        renderBehaviourTable(by === 'none' ? `${source} · all runs` : `${by} ${group.key}`, group.statistics),
      );
      const notes = coverage.note === undefined ? [] : [`note: ${coverage.note}`];
      const unread = groups.filter(
        (group) =>
          group.statistics.calls > 0 && Object.values(group.statistics.after).every((shares) => shares.n === 0),
      );
      if (unread.length > 0)
        notes.push(
          `note: ${unread.map((group) => group.key).join(', ')}: ${unread.length === 1 ? 'its' : 'their'} tool calls were read, but no result with the step that followed it (a turn's boundaries are not in these runs' traces: an agent's own loop keeps its transcript), so every "after" row counts nothing`,
        );
      process.stdout.write(`${[...tables, ...notes].join('\n\n')}\n`);
    });
}
