import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { escapeControl } from '../../report/terminal-text.js';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { UserInputError, type InputProblem } from '../../user-input-error.js';
import { optionAlias } from '../option-alias.js';
import { replaceableFile } from '../output-file.js';
import { SCAFFOLD_SCENARIO_ID, scaffoldFiles } from '../init-scaffold.js';
import { cliCommand } from '../invocation.js';

interface InitFlags {
  readonly overwrite: boolean;
  readonly dataset: boolean;
}

/** A path as the user types it: relative to the working directory when inside it (./x when it has no folder), else absolute. */
function typed(path: string): string {
  const shown = relative(process.cwd(), path);
  if (shown === '' || shown.startsWith('..') || isAbsolute(shown)) return path;
  return shown.includes(sep) ? shown : `.${sep}${shown}`;
}

/**
 * Writes the scaffold into `dir` and returns the files written. Refuses, naming every one,
 * when any of them exists (a link or a FIFO too), unless `overwrite`: a half-written
 * scaffold over a user's files is worse than none.
 */
export function initProject(dir: string, overwrite: boolean, dataset = false): string[] {
  const target = resolve(dir);
  // The package as a project installs it; an editor resolves the schema from the scenario's folder.
  const schema = relative(
    target,
    join(process.cwd(), 'node_modules', 'spiralbench', 'scenarios', 'scenario.schema.json'),
  );
  const scenario = typed(join(target, `${SCAFFOLD_SCENARIO_ID}.yaml`));
  const files = scaffoldFiles(schema.split(sep).join('/'), scenario, dataset).map((file) => ({
    ...file,
    path: join(target, file.name),
  }));
  const problems = files.flatMap((file): InputProblem[] => {
    try {
      replaceableFile(file.path, { another: 'folder', overwrite });
      return [];
    } catch (error) {
      if (!(error instanceof UserInputError)) throw error;
      // Shown as the user typed the folder, like the files init reports writing.
      return error.problems.map((problem) => ({ ...problem, source: typed(file.path) }));
    }
  });
  if (problems.length > 0) throw new UserInputError(problems);
  mkdirSync(target, { recursive: true });
  for (const file of files) writeFileAtomic(file.path, file.text);
  return files.map((file) => file.path);
}

export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      'Scaffold a scenario played with your own tools: <dir>/customer-note.yaml, <dir>/tools.ts (one async read, one write, made with defineTool) and a README of the next commands.',
    )
    .argument('[dir]', 'the folder to write to (created if missing)', 'spiralbench')
    .option('--overwrite', 'replace files that already exist (--force is an alias)', false)
    .addOption(optionAlias('--force', 'overwrite'))
    .option(
      '--dataset',
      'make the scenario a dataset: its tasks from <dir>/customer-note.tasks.csv, one a row (docs/datasets.md)',
      false,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  spiralbench init my-bench\n  spiralbench init my-bench --dataset   # many tasks, one a row of a CSV file\n\nExits 2, naming them, when a file it would write exists.',
    )
    .action((dir: string, flags: InitFlags) => {
      const written = initProject(dir, flags.overwrite, flags.dataset);
      const scenario = typed(written[0]!);
      const lines = [
        ...written.map((path) => `wrote ${escapeControl(typed(path))}`),
        '',
        'Next:',
        // tools.ts imports spiralbench, resolved from its own folder as any package is.
        ...(importsFrom(dir)
          ? []
          : [
              `  npm install --save-dev spiralbench   # in ${escapeControl(typed(dir))}'s project: tools.ts imports it (with a clone of spiralbench: npm link there, npm link spiralbench here)`,
            ]),
        `  ${cliCommand()} validate ${escapeControl(scenario)}`,
        `  ${cliCommand()} run -s ${escapeControl(scenario)} -a none,article -n 20`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}

/** Whether a module in `dir` can import spiralbench (it is installed or linked where `dir` looks). */
function importsFrom(dir: string): boolean {
  try {
    createRequire(join(resolve(dir), 'tools.ts')).resolve('spiralbench');
    return true;
  } catch {
    return false;
  }
}
