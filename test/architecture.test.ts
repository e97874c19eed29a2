import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../src');

/** Every source file under src/, tests and test helpers left out. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(at);
    return /\.ts$/.test(entry.name) && !/\.(test|fuzz\.test|test-helpers)\.ts$/.test(entry.name) ? [at] : [];
  });
}

/** The folder a file lives in, one level under src/ (a file at src/'s top is its own room). */
const roomOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

/** room → room → one import that ties them, static or `import('…')` alike, types included. */
function roomImports(): Map<string, Map<string, string>> {
  const rooms = new Map<string, Map<string, string>>();
  for (const file of sourceFiles()) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), spec!);
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      const out = rooms.get(from) ?? new Map<string, string>();
      rooms.set(from, out);
      if (!out.has(to)) out.set(to, `${path.relative(SRC, file)} imports ${spec}`);
    }
  }
  return rooms;
}

/** Groups of rooms that import each other round a loop (Tarjan's strongly connected components). */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    for (const to of edges.get(room)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      group.push(member);
    } while (member !== room);
    if (group.length > 1) found.push(group.sort());
  };
  for (const room of edges.keys()) if (!index.has(room)) visit(room);
  return found;
}

describe('the house', () => {
  it('has no folders under src/ that import each other round a loop', () => {
    const edges = roomImports();
    const ties = cycles(edges).map((group) =>
      group.flatMap((from) => group.flatMap((to) => edges.get(from)?.get(to) ?? [])).join('\n  '),
    );
    expect(ties, `folders importing each other:\n  ${ties.join('\n\n  ')}`).toEqual([]);
  });

  it('sees a loop when there is one (the check is not blind)', () => {
    const edges = new Map([
      ['a', new Map([['b', 'a/x.ts imports ../b/y.js']])],
      ['b', new Map([['a', 'b/y.ts imports ../a/x.js']])],
      ['c', new Map([['a', 'c/z.ts imports ../a/x.js']])],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b']]);
  });
});
