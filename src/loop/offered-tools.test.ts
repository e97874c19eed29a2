import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { offeredTools } from './offered-tools.js';
import { iterationBudget } from './guards/iteration-budget.js';
import { STUCK_TOOL, stuckTool } from './guards/stuck-tool.js';
import { toolBudget } from './guards/tool-budget.js';

const tool = (name: string): Tool => ({ name, input_schema: { type: 'object' } });

describe('offeredTools', () => {
  it("offers the host's tools, then each guard's, in guard order", () => {
    const host = Object.freeze([tool('get_user'), tool('write_result')]);
    const offered = offeredTools(host, [
      toolBudget({ maxToolCalls: 5 }),
      stuckTool(),
      iterationBudget({ initial: 10, extension: 10, cap: 25 }),
    ]);
    expect(offered.map((entry) => entry.name)).toEqual([
      'get_user',
      'write_result',
      'request_human_help',
      'request_more_iterations',
    ]);
  });

  it('gives every run of the same host and guard tools one frozen list, whatever guard instances offer them', () => {
    const host = Object.freeze([tool('get_user')]);
    const first = offeredTools(host, [stuckTool(), toolBudget({ maxToolCalls: 5 })]);
    const second = offeredTools(host, [stuckTool()]);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(offeredTools(host, [])).not.toBe(first);
    expect(offeredTools(host, [])).toEqual(host);
  });

  it('copies a host list that is not frozen, so a later change to it is seen by the next run', () => {
    const host = [tool('get_user')];
    const first = offeredTools(host, [stuckTool()]);
    host.push(tool('write_result'));
    const second = offeredTools(host, [stuckTool()]);
    expect(first).toEqual([host[0], STUCK_TOOL]);
    expect(second.map((entry) => entry.name)).toEqual(['get_user', 'write_result', 'request_human_help']);
  });
});
