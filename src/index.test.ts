import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The public surface, written out: a name added to src/index.ts (or one that leaks into the
// built package some other way) fails here until it is added on purpose, with its docs.
const VALUES = [
  'AnthropicModelClient',
  'BudgetedAgentLoop',
  'DATA_FAULT_KINDS',
  'RunJournal',
  'ScriptedModel',
  'ToolError',
  'VirtualClock',
  'argumentRepair',
  'concurrency',
  'contextCompaction',
  'defineAgent',
  'defineGuard',
  'defineTool',
  'errorClassification',
  'heuristicInjectionClassifier',
  'injectionDetector',
  'invalidInput',
  'iterationBudget',
  'lastKnownGood',
  'llmRecovery',
  'loopDetection',
  'notFound',
  'openFinishedSweep',
  'orderingFixup',
  'outputContracts',
  'outputLimitRecovery',
  'readRuns',
  'repeatFingerprint',
  'runAgentSweep',
  'runJournal',
  'sessionTrust',
  'stuckTool',
  'timeLimits',
  'toolBudget',
  'toolFilter',
  'toolOutputIsolation',
  'withFaults',
  'writeVerification',
];
const TYPES = [
  'AgentContext',
  'AgentDefinition',
  'AgentEvent',
  'AgentResult',
  'AgentSweepOptions',
  'AgentSweepResult',
  'AgentTools',
  'AnthropicClientOptions',
  'DataFaultKind',
  'DefinedTool',
  'FaultKind',
  'FinishedSweep',
  'FlakyCall',
  'Guard',
  'GuardDescriptor',
  'GuardRun',
  'Json',
  'LoopContext',
  'LoopOptions',
  'MaybePromise',
  'Message',
  'ModelClient',
  'ModelRequest',
  'OutputSchema',
  'ReadBack',
  'RunMetrics',
  'RunOutcome',
  'RunResult',
  'ScriptedTurn',
  'StoredRun',
  'ToolDataFaults',
  'ToolDefinition',
  'ToolErrorCode',
  'ToolExecution',
  'ToolHost',
  'ToolSpec',
  'ToolTraits',
  'WithFaultsOptions',
  'World',
];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const indexSource = readFileSync(join(root, 'src/index.ts'), 'utf8');

/** Each name src/index.ts exports, with the module it comes from and whether it is a type. */
function indexExports(): { name: string; module: string; type: boolean }[] {
  const found: { name: string; module: string; type: boolean }[] = [];
  const statement = /^export (type )?\{([^}]*)\} from '([^']+)';/gm;
  for (const match of indexSource.matchAll(statement)) {
    const [, typeOnly, list, from] = match;
    for (const raw of list!.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const type = typeOnly !== undefined || entry.startsWith('type ');
      found.push({ name: entry.replace(/^type /, ''), module: from!, type });
    }
  }
  return found;
}

/** The doc comment directly above `name`'s exported declaration in `file`, or null. */
function docComment(file: string, name: string): string | null {
  const text = readFileSync(file, 'utf8');
  const declaration = new RegExp(
    `^export (?:declare )?(?:abstract )?(?:async )?(?:class|interface|type|function|const) ${name}\\b`,
    'm',
  );
  const at = text.search(declaration);
  if (at < 0) return null;
  const before = text.slice(0, at).trimEnd();
  if (!before.endsWith('*/')) return null;
  return before.slice(before.lastIndexOf('/**'));
}

describe('the public surface (src/index.ts)', () => {
  const exported = indexExports();

  it('names exactly the listed values and types', () => {
    expect(
      exported
        .filter((entry) => !entry.type)
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(VALUES);
    expect(
      exported
        .filter((entry) => entry.type)
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(TYPES);
    // Only `export {…} from` lines: a declaration written in index.ts itself would be
    // public without passing through the lists above.
    const code = indexSource.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    const statements = code
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    for (const part of statements) expect(part).toMatch(/^export (type )?\{[^}]*\} from '[^']+'$/);
  });

  it('gives every name a doc comment with an @example where it is declared', () => {
    const missing: string[] = [];
    for (const { name, module } of exported) {
      const file = join(root, 'src', module.replace(/\.js$/, '.ts'));
      const doc = docComment(file, name);
      if (doc === null || !doc.includes('@example')) missing.push(`${name} (${module})`);
    }
    expect(missing).toEqual([]);
  });

  it('describes every name in docs/api.md', () => {
    const api = readFileSync(join(root, 'docs/api.md'), 'utf8');
    const undocumented = exported.map((entry) => entry.name).filter((name) => !new RegExp(`\`${name}\\b`).test(api));
    expect(undocumented).toEqual([]);
  });

  // The built package is what users import: run after `npm run build` (npm test builds first).
  it('is what the built dist/index.js exports, at run time', async () => {
    const built = await import(join(root, 'dist/index.js'));
    expect(Object.keys(built).sort()).toEqual(VALUES);
    const declarations = readFileSync(join(root, 'dist/index.d.ts'), 'utf8');
    for (const name of [...VALUES, ...TYPES]) expect(declarations).toMatch(new RegExp(`\\b${name}\\b`));
  });
});
