import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadScenarioFileAt } from '../../sweep/scenario-source.js';
import { configChangeProblems } from '../config-change-check.js';
import { escapeControl } from '../../report/terminal-text.js';
import { formatProblem, UserInputError, type InputProblem } from '../../user-input-error.js';

export interface ValidationReport {
  /** Files that loaded cleanly, in the order checked. */
  readonly ok: readonly string[];
  /** A dataset scenario's number of tasks (every row checked), by file. */
  readonly tasks?: Readonly<Record<string, number>>;
  /** Every problem of every file, each once. */
  readonly problems: readonly InputProblem[];
}

const isScenarioFile = (name: string): boolean => name.endsWith('.yaml') || name.endsWith('.yml');

/** The scenario files a path names: the file itself, or a folder's *.yaml files (not its personas/). */
function scenarioFiles(path: string): string[] | InputProblem {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return { source: path, field: '', expected: 'a scenario file or a folder of them; nothing is there' };
  }
  if (!isDirectory) return [path];
  const files = readdirSync(path).filter(isScenarioFile).sort();
  if (files.length === 0)
    return { source: path, field: '', expected: 'a folder with at least one .yaml scenario file' };
  return files.map((name) => join(path, name));
}

/**
 * Loads every scenario file the paths name, exactly as `run` would (personas from a
 * personas/ folder beside the file, else the bundled ones), and collects every problem
 * of every file instead of stopping at the first bad one.
 */
export async function validateScenarioPaths(paths: readonly string[]): Promise<ValidationReport> {
  const ok: string[] = [];
  const tasks: Record<string, number> = {};
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  const add = (problem: InputProblem): void => {
    // A broken persona file is reported once, not once per scenario that uses it.
    const key = formatProblem(problem);
    if (!seen.has(key)) problems.push(problem);
    seen.add(key);
  };
  for (const path of paths) {
    const files = scenarioFiles(path);
    if (!Array.isArray(files)) {
      add(files);
      continue;
    }
    for (const file of files) {
      try {
        const scenario = await loadScenarioFileAt(file);
        const changeProblems = configChangeProblems([{ scenario, path: file }], undefined);
        if (changeProblems.length > 0) throw new UserInputError(changeProblems);
        ok.push(file);
        if (scenario.dataset !== null) tasks[file] = scenario.dataset.tasks.length;
      } catch (error) {
        if (!(error instanceof UserInputError)) throw error;
        error.problems.forEach(add);
      }
    }
  }
  return { ok, problems, ...(Object.keys(tasks).length === 0 ? {} : { tasks }) };
}

export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description(
      'Check scenario files: prints "ok <file>" for each good file and every problem of every bad one (file, field, expectation).',
    )
    .argument(
      '<paths...>',
      'scenario files, or folders whose .yaml files are scenarios (personas from <folder>/personas, else the bundled ones)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  spiralbench validate scenarios/\n\nExits 0 when every file is valid, 2 otherwise.',
    )
    .action(async (paths: string[]) => {
      const report = await validateScenarioPaths(paths);
      for (const file of report.ok) {
        const tasks = report.tasks?.[file];
        process.stdout.write(
          `ok ${escapeControl(file)}${tasks === undefined ? '' : ` (${tasks} tasks, every row checked)`}\n`,
        );
      }
      if (report.problems.length > 0) throw new UserInputError(report.problems);
    });
}
