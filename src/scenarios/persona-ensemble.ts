import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isMap, isScalar, isSeq } from 'yaml';
import { z } from 'zod';
import { didYouMean } from '../did-you-mean.js';
import { type InputProblem, UserInputError } from '../user-input-error.js';
import { readInputFile } from './input-file.js';
import { SCENARIOS_DIR } from './loader.js';
import { type Persona, personaSchema } from './persona-schema.js';
import { parseYamlInput } from './yaml-input.js';

/**
 * A persona ensemble: personas that all fit one baseline (`spiralbench calibrate`), run
 * in turn by a sweep so its conclusions can say how they hold across plausible models.
 * This module owns the file format: its schema, its reader and its text.
 */
export interface PersonaEnsemble {
  /** `default`, or the file's path as the user gave it. */
  readonly name: string;
  /** sha256 of the file's bytes. */
  readonly hash: string;
  /** At least one; frozen, since every run of a sweep shares them. */
  readonly members: readonly Persona[];
}

/** The name that stands for the bundled ensemble. */
export const DEFAULT_ENSEMBLE = 'default';

/** The bundled ensemble, fitted to the reference scenario's published no-safeguard baseline. */
export const DEFAULT_ENSEMBLE_PATH = join(SCENARIOS_DIR, 'ensembles', 'default.yaml');

/** More members than any fit needs; a bound on what one file can make every worker hold. */
export const MAX_MEMBERS = 10_000;

const KIND = 'persona-ensemble';

const ensembleFileSchema = z.strictObject({
  kind: z.literal(KIND),
  /** How the ensemble was made (command, seed, targets, fit); informational, never read by a run. */
  provenance: z.record(z.string(), z.unknown()).optional(),
  members: z.array(z.unknown()).min(1).max(MAX_MEMBERS),
});

function problemsOf(source: string, prefix: string, error: z.ZodError): InputProblem[] {
  return error.issues.map((issue) => ({
    source,
    field: [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.'),
    expected: issue.message,
  }));
}

/**
 * The ensemble named on the command line: `default` (the bundled one) or a file. The file
 * is user input: read with a bound, and every member checked against the persona schema,
 * each problem naming the file, the member and the field.
 */
export function loadEnsemble(nameOrPath: string): PersonaEnsemble {
  const path = nameOrPath === DEFAULT_ENSEMBLE ? DEFAULT_ENSEMBLE_PATH : nameOrPath;
  // A bare word that is neither the built-in name nor a file: a mistyped name, said against
  // the flag with the name it most likely meant (a path that is not there is said as a file).
  if (path !== DEFAULT_ENSEMBLE_PATH && !/[\\/.]/.test(path) && !existsSync(path))
    throw UserInputError.single(
      '--ensemble',
      '',
      `'${DEFAULT_ENSEMBLE}' or an ensemble file from \`spiralbench calibrate\`; got '${nameOrPath}', which is neither${didYouMean(nameOrPath, [DEFAULT_ENSEMBLE])}`,
    );
  return ensembleFromText(nameOrPath, path, readInputFile(path));
}

/** An ensemble file's text, checked; `name` is what results call it, `path` what messages name. */
export function ensembleFromText(name: string, path: string, text: string): PersonaEnsemble {
  let raw: unknown;
  try {
    raw = parseYamlInput(text);
  } catch (error) {
    throw UserInputError.single(path, '', `valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const file = ensembleFileSchema.safeParse(raw);
  if (!file.success) throw new UserInputError(problemsOf(path, '', file.error));
  const problems: InputProblem[] = [];
  const members: Persona[] = [];
  file.data.members.forEach((entry, i) => {
    const member = personaSchema.safeParse(entry);
    if (member.success) members.push(Object.freeze(member.data));
    else problems.push(...problemsOf(path, `members.${i}`, member.error));
  });
  if (problems.length > 0) throw new UserInputError(problems);
  return Object.freeze({
    name,
    hash: createHash('sha256').update(text).digest('hex'),
    members: Object.freeze(members),
  });
}

/** What an ensemble file holds, as `calibrate` writes it. */
export interface EnsembleFileContent {
  /** Lines of the comment at the top of the file (without `#`), none of them empty. */
  readonly header: readonly string[];
  /** Written in the order of its keys. */
  readonly provenance: Readonly<Record<string, unknown>>;
  readonly members: readonly Persona[];
}

/**
 * The text of an ensemble file: the same content always gives the same bytes. A map or
 * list of plain values is written on one line (`retry: { same: 0.8, varied: 0.2, ... }`),
 * so a member reads at a glance and the file diffs by parameter group.
 */
export function ensembleText(content: EnsembleFileContent): string {
  // No anchors and aliases: members that share a group of values still each spell it out.
  const doc = new Document(
    { kind: KIND, provenance: content.provenance, members: content.members },
    { aliasDuplicateObjects: false },
  );
  doc.commentBefore = content.header.map((line) => ` ${line}`).join('\n');
  flowLeaves(doc.contents);
  return doc.toString({ lineWidth: 0 });
}

/** Marks every collection below `node` whose items are all scalars to be written in flow style. */
function flowLeaves(node: unknown): void {
  if (!isMap(node) && !isSeq(node)) return;
  const children = isMap(node) ? node.items.map((pair) => pair.value) : node.items;
  for (const child of children) flowLeaves(child);
  if (children.length > 0 && children.every((child) => isScalar(child))) node.flow = true;
}
