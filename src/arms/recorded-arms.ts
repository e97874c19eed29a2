import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { AgentRef } from './agent-arm.js';
import type { ScenarioTexts } from '../scenarios/loader.js';
import type { Arm, GuardSetting } from './arms.js';
import { isUserGuardSetting } from './user-guards.js';
import { localImportGraph } from '../user-module/module-graph.js';

/**
 * A user module's path as results show it: relative to the folder the sweep ran in, the
 * way a user types it there (`./agents/mine.ts`), so shards run from two checkouts record
 * the same arms and a printed command pastes on another machine. A module outside that
 * folder keeps its absolute path.
 */
export function shownModulePath(path: string, cwd: string = process.cwd()): string {
  const from = relative(cwd, path);
  if (from === '' || from === '..' || from.startsWith(`..${sep}`) || isAbsolute(from)) return path;
  return `.${sep}${from}`;
}

/** The sha256 of a module's text; a module that cannot be read hashes as empty (importing it has already failed). */
export function moduleHash(path: string): string {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // left empty
  }
  return textHash(text);
}

const textHash = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A scenario's tools module and each file it imports, by shown path with the sha256 of
 * the text the sweep read, for a sweep's identity: what a refused resume names. Absent
 * for a module that imports nothing of the project (its text alone is the scenario's hash).
 */
export function toolsModuleFiles(
  texts: ScenarioTexts,
  cwd: string = process.cwd(),
): { files?: Record<string, string> } {
  const module = texts.toolsModule;
  if (module?.imports === undefined || module.imports.length === 0) return {};
  const files = [module, ...module.imports].map(
    ({ path, text }) => [shownModulePath(path, cwd), textHash(text)] as const,
  );
  return { files: Object.fromEntries(files) };
}

/**
 * The files of scenarios' tools modules whose text differs between two identities, as
 * `team: ./names.ts (sha256 abcd1234…, now ef012345…)`.
 */
export function changedToolsModuleFiles(
  before: ReadonlyArray<{ readonly id: string; readonly files?: Readonly<Record<string, string>> | undefined }>,
  after: ReadonlyArray<{ readonly id: string; readonly files?: Readonly<Record<string, string>> | undefined }>,
): string[] {
  const changed: string[] = [];
  for (const scenario of after) {
    const then = before.find((earlier) => earlier.id === scenario.id)?.files;
    const now = scenario.files;
    if (then === undefined || now === undefined) continue;
    for (const file of new Set([...Object.keys(then), ...Object.keys(now)]))
      if (then[file] !== now[file])
        changed.push(
          `${scenario.id}: ${file} (${then[file] === undefined ? 'not imported then' : `sha256 ${short(then[file])}`}, ${now[file] === undefined ? 'no longer imported' : `now ${short(now[file])}`})`,
        );
  }
  return changed;
}

/**
 * The files a user module imports from the project (its local import graph, the module
 * itself left out), by shown path with the sha256 of each text; absent when it imports
 * none, so such a module is recorded to the byte as before.
 */
export function moduleImports(path: string, cwd: string = process.cwd()): { imports?: Record<string, string> } {
  const [, ...imported] = localImportGraph(path);
  if (imported.length === 0) return {};
  const entries = imported.map((file) => [shownModulePath(file, cwd), moduleHash(file)] as const);
  return { imports: Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

/**
 * Arms as results record them (summary.json, progress.json's identity): every user
 * module by its shown path and the sha256 of its text, and each file it imports from the
 * project likewise (`imports`), so a resume or a merge across an edited agent, guard or
 * helper of theirs is refused rather than mixed. Runs still import the absolute paths of
 * `arms`. Built-in and peer arms are returned as they are, to the byte.
 */
export function recordedArms(arms: readonly Arm[], cwd: string = process.cwd()): Arm[] {
  return arms.map((arm) => {
    if (arm.agent !== undefined) return { ...arm, agent: recordedAgent(arm.agent, cwd) };
    if (!arm.guards.some(isUserGuardSetting)) return arm;
    return { ...arm, guards: arm.guards.map((setting) => recordedGuard(setting, cwd)) };
  });
}

function recordedGuard(setting: GuardSetting, cwd: string): GuardSetting {
  if (!isUserGuardSetting(setting)) return setting;
  return {
    guard: setting.guard,
    module: shownModulePath(setting.module, cwd),
    ...(setting.export === undefined ? {} : { export: setting.export }),
    hash: moduleHash(setting.module),
    ...moduleImports(setting.module, cwd),
    settings: setting.settings,
  };
}

function recordedAgent(ref: AgentRef, cwd: string): AgentRef {
  if (ref.kind !== 'module') return ref;
  return {
    kind: 'module',
    module: shownModulePath(ref.module, cwd),
    ...(ref.export === undefined ? {} : { export: ref.export }),
    hash: moduleHash(ref.module),
    ...moduleImports(ref.module, cwd),
    settings: ref.settings,
  };
}

/** `--agent`'s spelling of a module agent as a printed command shows it: the shown path, then `#export` if named. */
export function shownAgentSpec(ref: Extract<AgentRef, { kind: 'module' }>, cwd: string = process.cwd()): string {
  const path = shownModulePath(ref.module, cwd);
  return ref.export === undefined ? path : `${path}#${ref.export}`;
}

/** An arm as results hold it, as far as its user modules go (summary.json, progress.json). */
interface StoredModules {
  readonly name: string;
  readonly guards: ReadonlyArray<{ readonly [field: string]: unknown }>;
  readonly agent?: unknown;
}

/**
 * The user modules whose text differs between two recordings of the same arms, or a file
 * they import, as `agent:mine: ./mine.ts (sha256 abcd1234…, now ef012345…)` or
 * `agent:mine: ./helper.ts, imported by ./mine.ts (…)`: what to name when a resume or a
 * merge is refused.
 */
export function changedModules(before: readonly StoredModules[], after: readonly StoredModules[]): string[] {
  const then = moduleHashes(before);
  const now = moduleHashes(after);
  const changed: string[] = [];
  for (const [key, { hash, imported }] of now) {
    const earlier = then.get(key);
    if (earlier === undefined) {
      // A module new to an arm is a different arm, named by the arms field; a new import is a change of its module.
      if (imported) changed.push(`${key} (not imported then, now sha256 ${short(hash)})`);
    } else if (earlier.hash !== hash) changed.push(`${key} (sha256 ${short(earlier.hash)}, now ${short(hash)})`);
  }
  for (const [key, { hash, imported }] of then)
    if (imported && !now.has(key)) changed.push(`${key} (sha256 ${short(hash)}, no longer imported)`);
  return changed;
}

function moduleHashes(arms: readonly StoredModules[]): Map<string, { hash: string | undefined; imported: boolean }> {
  const found = new Map<string, { hash: string | undefined; imported: boolean }>();
  const add = (arm: string, entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return;
    const { module, hash, imports } = entry as {
      readonly module?: unknown;
      readonly hash?: unknown;
      readonly imports?: unknown;
    };
    if (typeof module !== 'string') return;
    found.set(`${arm}: ${module}`, { hash: typeof hash === 'string' ? hash : undefined, imported: false });
    if (typeof imports !== 'object' || imports === null) return;
    for (const [file, fileHash] of Object.entries(imports))
      found.set(`${arm}: ${file}, imported by ${module}`, {
        hash: typeof fileHash === 'string' ? fileHash : undefined,
        imported: true,
      });
  };
  for (const arm of arms) {
    add(arm.name, arm.agent);
    for (const setting of arm.guards) add(arm.name, setting);
  }
  return found;
}

const short = (hash: string | undefined): string => (hash === undefined ? 'none recorded' : `${hash.slice(0, 8)}…`);
