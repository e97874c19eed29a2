import { describe, expect, it } from 'vitest';
import { isHelpTool } from './help-tool.js';

describe('isHelpTool', () => {
  it('reads a plea for a person by meaning, in any spelling', () => {
    expect(
      [
        'request_human_help',
        'ask_human',
        'transfer_to_human_agents',
        'escalateToOperator',
        'signal_stuck',
        'contact-support',
      ].map(isHelpTool),
    ).toEqual([true, true, true, true, true, true]);
  });

  it('leaves ordinary tools alone, even ones that name people or requests', () => {
    expect(
      ['get_user', 'request_more_iterations', 'list_people', 'search_users', 'send_email'].map(isHelpTool),
    ).toEqual([false, false, false, false, false]);
  });
});
