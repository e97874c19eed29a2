import { describe, expect, it } from 'vitest';
import { canRedraw, colourWanted } from './terminal-capabilities.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('colourWanted', () => {
  it.each([
    ['a terminal', tty, { TERM: 'xterm' }, true],
    ['a pipe or a file', pipe, { TERM: 'xterm' }, false],
    ['a terminal with NO_COLOR', tty, { TERM: 'xterm', NO_COLOR: '1' }, false],
    ['a terminal with an empty NO_COLOR (unset, by the convention)', tty, { NO_COLOR: '' }, true],
    ['a dumb terminal', tty, { TERM: 'dumb' }, false],
    ['a pipe with FORCE_COLOR', pipe, { FORCE_COLOR: '1' }, true],
    ['a pipe with an empty FORCE_COLOR', pipe, { FORCE_COLOR: '' }, true],
    ['FORCE_COLOR over NO_COLOR', pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
    ['a terminal with FORCE_COLOR=0', tty, { FORCE_COLOR: '0' }, false],
    ['a terminal with FORCE_COLOR=false', tty, { FORCE_COLOR: 'false' }, false],
  ])('%s: %s', (_name, stream, env, expected) => {
    expect(colourWanted(stream, env)).toBe(expected);
  });
});

describe('canRedraw', () => {
  it('only on a terminal that is not dumb, whatever NO_COLOR says', () => {
    expect(canRedraw(tty, { TERM: 'xterm', NO_COLOR: '1' })).toBe(true);
    expect(canRedraw(tty, { TERM: 'dumb' })).toBe(false);
    expect(canRedraw(pipe, { TERM: 'xterm' })).toBe(false);
  });
});
