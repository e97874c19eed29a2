import { type Command, CommanderError } from 'commander';
import { CheckedCommand } from './checked-command.js';
import { escapeControl } from '../report/terminal-text.js';
import { pathProblem } from '../results/results-fs.js';
import { scrubTerminalOutput } from '../secrets/process-secrets.js';
import { formatProblem, UserInputError } from '../user-input-error.js';
import { CheckFailed } from './check-failed.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';
import { reportUnexpected } from './process-handlers.js';
import { ModelUnreachable } from './model-unreachable.js';
import { RunInterrupted } from './run-interrupted.js';
import { SpendLimitStopped } from './spend-watch.js';
import { UserCodeExited } from '../user-module/process-exit-trap.js';
import { ArmCouldNotRun } from '../sweep/arm-health.js';
import { VERSION } from '../version.js';

type Register = (program: Command) => void;

/**
 * Every command, by name, with the module that registers it. A command's module loads only
 * when that command runs: `report` does not load the agent loop, `run` not the MCP server,
 * and a CLI spawned a thousand times by a test suite or a CI script starts in a fraction of
 * the time. Help, and a command that is not one of these, load them all.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  run: async () => (await import('./commands/run.js')).registerRun,
  arena: async () => (await import('./commands/arena.js')).registerArena,
  calibrate: async () => (await import('./commands/calibrate.js')).registerCalibrate,
  behaviour: async () => (await import('./commands/behaviour.js')).registerBehaviour,
  replay: async () => (await import('./commands/replay.js')).registerReplay,
  list: async () => (await import('./commands/list.js')).registerList,
  bench: async () => (await import('./commands/bench.js')).registerBench,
  merge: async () => (await import('./commands/merge.js')).registerMerge,
  compare: async () => (await import('./commands/compare.js')).registerCompare,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  init: async () => (await import('./commands/init.js')).registerInit,
  report: async () => (await import('./commands/report.js')).registerReport,
  'crash-resume': async () => (await import('./commands/crash-resume.js')).registerCrashResume,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  'serve-model': async () => (await import('./commands/serve-model.js')).registerServeModel,
  'live-check': async () => (await import('./commands/live-check.js')).registerLiveCheck,
  view: async () => (await import('./commands/view.js')).registerView,
};

/** The command `argv` names: its first word that is not a flag (the global flags take no value). */
function commandNamed(argv: readonly string[]): string | undefined {
  const word = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return word !== undefined && Object.hasOwn(COMMANDS, word) ? word : undefined;
}

/** Whether `argv` only asks for the version (`--version`, `-V`), which no command is needed to answer. */
function versionOnly(argv: readonly string[]): boolean {
  const words = argv.slice(2).filter((word) => word !== '--verbose');
  return words.length > 0 && words.every((word) => word === '--version' || word === '-V');
}

/**
 * The CLI's program with the commands `argv` needs: the one it names, none for the
 * version alone, or all of them for help, a bare `spiralbench` or a mistyped command (so
 * both can list and suggest them).
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new CheckedCommand('spiralbench')
    .description(
      'Fault-injection benchmark for LLM agent loops: what happens to your agent when its tools and its model misbehave, and which safeguard is worth it.',
    )
    .version(VERSION)
    .option('--verbose', 'print stack traces for unexpected errors')
    .addHelpText('after', exitCodesHelp())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(escapeControl(text, { newline: true, tab: true })) });
  const named = commandNamed(argv);
  const loaders = named !== undefined ? [COMMANDS[named]!] : versionOnly(argv) ? [] : Object.values(COMMANDS);
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // The terminal is the other way out of the process besides results files: no key leaves by either.
  scrubTerminalOutput(process.stdout, process.stderr);
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv as string[]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit through here too, with code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof RunInterrupted) {
      process.stderr.write(`${escapeControl(error.message, { newline: true })}\n`);
      return EXIT.interrupted;
    }
    if (error instanceof ModelUnreachable) {
      process.stderr.write(`spiralbench: ${error.message}\n`);
      return EXIT.modelUnavailable;
    }
    if (error instanceof SpendLimitStopped) {
      process.stderr.write(`spiralbench: ${escapeControl(error.message, { newline: true })}\n`);
      return EXIT.spendLimit;
    }
    if (error instanceof ArmCouldNotRun) {
      process.stderr.write(`spiralbench: ${escapeControl(error.message, { newline: true })}\n`);
      return EXIT.armCouldNotRun;
    }
    if (error instanceof UserCodeExited) {
      process.stderr.write(`spiralbench: ${escapeControl(error.message, { newline: true })}\n`);
      return EXIT.userExit;
    }
    if (error instanceof CheckFailed) {
      process.stderr.write(`${escapeControl(error.message, { newline: true })}\n`);
      return EXIT.regression;
    }
    if (error instanceof UserInputError) {
      // Problems quote the values they refuse: a file name or a flag may hold anything.
      const lines = error.problems.map((problem) => escapeControl(formatProblem(problem), { newline: true }));
      process.stderr.write(
        lines.length === 1
          ? `error: ${lines[0]}\n`
          : `error: ${lines.length} problems\n${lines.map((line) => `  - ${line}\n`).join('')}`,
      );
      return EXIT.usage;
    }
    const refused = pathProblem(error);
    if (refused !== undefined) {
      process.stderr.write(
        `error: ${escapeControl(refused.path, { newline: true })}: ${refused.expected} (${refused.code})\n`,
      );
      return EXIT.usage;
    }
    return reportUnexpected(error, argv.includes('--verbose'));
  }
}
