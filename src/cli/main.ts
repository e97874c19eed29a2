import { type Command, CommanderError } from 'commander';
import { CheckedCommand } from './checked-command.js';
import { escapeControl } from '../report/terminal-text.js';
import { scrubTerminalOutput } from '../secrets/process-secrets.js';
import { formatProblem, UserInputError } from '../user-input-error.js';
import { CheckFailed } from './check-failed.js';
import { EXIT, exitCodesHelp } from './exit-codes.js';
import { reportUnexpected } from './process-handlers.js';
import { ModelUnreachable } from './model-unreachable.js';
import { RunInterrupted } from './run-interrupted.js';
import { UserCodeExited } from '../user-module/process-exit-trap.js';
import { ArmCouldNotRun } from '../bench/arm-health.js';
import { VERSION } from '../version.js';
import { registerBehaviour } from './commands/behaviour.js';
import { registerBench } from './commands/bench.js';
import { registerCompare } from './commands/compare.js';
import { registerCrashResume } from './commands/crash-resume.js';
import { registerServeModel } from './commands/serve-model.js';
import { registerServe } from './commands/serve.js';
import { registerLiveCheck } from './commands/live-check.js';
import { registerList } from './commands/list.js';
import { registerMerge } from './commands/merge.js';
import { registerReplay } from './commands/replay.js';
import { registerRun } from './commands/run.js';
import { registerArena } from './commands/arena.js';
import { registerCalibrate } from './commands/calibrate.js';
import { registerValidate } from './commands/validate.js';
import { registerInit } from './commands/init.js';
import { registerReport } from './commands/report.js';

export function buildProgram(): Command {
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
  registerRun(program);
  registerArena(program);
  registerCalibrate(program);
  registerBehaviour(program);
  registerReplay(program);
  registerList(program);
  registerBench(program);
  registerMerge(program);
  registerCompare(program);
  registerValidate(program);
  registerInit(program);
  registerReport(program);
  registerCrashResume(program);
  registerServe(program);
  registerServeModel(program);
  registerLiveCheck(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the CLI and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // The terminal is the other way out of the process besides results files: no key leaves by either.
  scrubTerminalOutput(process.stdout, process.stderr);
  const program = buildProgram();
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
    return reportUnexpected(error, argv.includes('--verbose'));
  }
}
