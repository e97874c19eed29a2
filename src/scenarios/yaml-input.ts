import {
  type CST,
  Composer,
  type Document,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  type Node,
  Parser,
  YAMLParseError,
} from 'yaml';

type Token = CST.Token;

/** The deepest nesting of maps and lists a user's YAML or JSON file may have. */
export const MAX_NESTING = 64;

/**
 * Parser stack entries per level of nesting, at most (a collection, and the value or
 * item being read in it), plus the document's: the stack can pass this only for a
 * document nested deeper than MAX_NESTING.
 */
const STACK_LIMIT = 2 * MAX_NESTING + 4;

/** A user's YAML that cannot be read; the first line of its message says why and where. */
export class YamlInputError extends Error {
  override readonly name = 'YamlInputError';
}

/**
 * A user's YAML (or JSON) file as a value, the way yaml's `parse` reads it, with costs
 * bounded by the file's size:
 * - nesting is refused past MAX_NESTING before the document is built, because yaml
 *   builds it recursively and V8 can abort the whole process at the stack limit;
 * - keys are checked for duplicates with one set per map (yaml compares each key with
 *   every earlier one, which is quadratic in the size of a map);
 * - the value is checked once more, because aliases can nest it deeper than its text
 *   (or make it contain itself).
 * Throws YamlInputError for anything it refuses.
 */
export function parseYamlInput(text: string): unknown {
  const doc = composeDocument(text);
  for (const warning of doc.warnings) process.emitWarning(warning);
  const duplicate = firstDuplicateKey(doc.contents);
  const first = doc.errors[0];
  if (first !== undefined && (duplicate === undefined || first.pos[0] <= duplicate.offset))
    throw new YamlInputError(`${first.message} at ${position(text, first.pos[0])}`);
  if (duplicate !== undefined)
    throw new YamlInputError(
      `Map keys must be unique; '${duplicate.key}' is repeated at ${position(text, duplicate.offset)}`,
    );
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // yaml refuses aliases that would expand the value past its own bound.
    throw new YamlInputError((error as Error).message);
  }
  if (nestingOf(value) > MAX_NESTING)
    throw new YamlInputError(`maps and lists nested at most ${MAX_NESTING} deep (counting what aliases stand for)`);
  return value;
}

function position(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * yaml's parseDocument, in its two steps: the syntax parser (iterative) runs first and
 * stops at the first level of nesting past the bound; only then is the document built.
 */
function composeDocument(text: string): Document.Parsed {
  const parser = new Parser();
  const tokens: Token[] = [];
  let offset = 0;
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > STACK_LIMIT)
      throw new YamlInputError(
        `maps and lists nested at most ${MAX_NESTING} deep; deeper at ${position(text, offset)}`,
      );
    offset += lexeme.length;
  }
  for (const token of parser.end()) tokens.push(token);
  let doc: Document.Parsed | undefined;
  for (const next of new Composer({ uniqueKeys: false }).compose(tokens, true, text.length)) {
    if (doc !== undefined) {
      doc.errors.push(
        new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'),
      );
      break;
    }
    doc = next;
  }
  // compose(…, forceDoc: true) always yields a document, empty for empty text.
  return doc!;
}

/** The first key (in document order) that its map already has, found with one set per map. */
function firstDuplicateKey(root: unknown): { key: string; offset: number } | undefined {
  let found: { key: string; offset: number } | undefined;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) {
      for (const item of node.items) pending.push(item);
    } else if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          // Keys are equal as yaml compares them: the same scalar value.
          if (seen.has(key.value)) {
            const offset = key.range?.[0] ?? 0;
            if (found === undefined || offset < found.offset) found = { key: String(key.value), offset };
          }
          seen.add(key.value);
        } else if (key !== null) {
          pending.push(key);
        }
        pending.push(pair.value);
      }
    }
  }
  return found;
}

/** How deeply arrays and objects nest in `value`, counted only as far as MAX_NESTING + 1. */
function nestingOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: item, depth } = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_NESTING) return deepest;
    const children: Iterable<unknown> =
      Array.isArray(item) || item instanceof Set ? item : item instanceof Map ? item.values() : Object.values(item);
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}
