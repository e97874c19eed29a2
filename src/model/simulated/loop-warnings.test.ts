import { describe, expect, it } from 'vitest';
import { loopMessage } from '../../loop/guards/loop-detection.js';
import { loopWarning } from './loop-warnings.js';

describe('loopWarning', () => {
  // The model reads only words; if the guard's wording drifts from what the model reads,
  // loop detection would silently stop having any effect.
  it("reads the loop-detection guard's own nudge and directive, naming the tool to stop calling", () => {
    const thrash = { kind: 'pattern', tool: 'search_knowledge_base', count: 4, window: 6 } as const;
    expect(loopWarning(loopMessage(1, thrash))).toEqual({ kind: 'nudge' });
    expect(loopWarning(loopMessage(2, thrash))).toEqual({ kind: 'directive', tool: 'search_knowledge_base' });
  });

  it('reads nothing into ordinary results', () => {
    expect(loopWarning('{"query":"q","results":[],"message":"No results found for this query."}')).toBeNull();
  });
});
