import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agents/define-agent.js';
import { REDACTED } from '../secrets/process-secrets.js';
import './index.js';
import { failureOf as matcherFailure } from './matcher-failure.test-helpers.js';

// Set before anything reads this worker's secrets: they are read once per process.
const KEY = 'sk-ant-api03-test-matcher-key-0123456789abcdef';
process.env.ANTHROPIC_API_KEY = KEY;

const SCENARIO = 'fetch-transform-write';

/** What a matcher that failed said: its message and its stack. */
async function failureOf(assertion: Promise<void>): Promise<string> {
  const error = await matcherFailure(assertion);
  return `${error.message}\n${error.stack ?? ''}`;
}

// Test logs are CI logs: what the matcher prints is redacted as results files are.
describe('toSurvive and the API key', () => {
  it("redacts a key an agent's error quoted from the failing seeds it lists", async () => {
    let runs = 0;
    const leaky = defineAgent({
      name: 'leaky',
      run: async ({ tools }) => {
        runs += 1;
        await tools.call('get_user', { user_id: 'u_1042' });
        if (runs % 2 === 0) throw new Error(`bad auth ${process.env.ANTHROPIC_API_KEY}`);
        return 'done';
      },
    });
    const message = await failureOf(expect(leaky).toSurvive(SCENARIO, { seeds: 10 }));
    expect(message).toContain(`bad auth ${REDACTED}`);
    expect(message).not.toContain(KEY.slice(0, 16));
  });

  it('redacts it from the error of an arm that could not run', async () => {
    const broken = defineAgent({
      name: 'broken',
      run: async () => {
        throw new Error(`boom ${process.env.ANTHROPIC_API_KEY}`);
      },
    });
    const message = await failureOf(expect(broken).toSurvive(SCENARIO, { seeds: 5 }));
    expect(message).toContain('could not run');
    expect(message).not.toContain(KEY.slice(0, 16));
  });
});
