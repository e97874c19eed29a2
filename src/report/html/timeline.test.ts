import { describe, expect, it } from 'vitest';
import type { TraceLine } from './report-input.js';
import { clip, renderTimeline } from './timeline.js';

const EVIL = '<img src=x onerror=alert(1)>';

function trace(overrides: Partial<TraceLine> = {}): TraceLine {
  return {
    scenario: EVIL,
    arm: 'none',
    seed: 6,
    sweep_seed: 0,
    reasons: ['failure'],
    replay: `spiralbench replay --scenario ${EVIL} --arm none --seed 6`,
    record: {
      outcome: 'completed',
      verdict: 'failure',
      verdict_reason: 'nothing was written to the outbox',
      tool_calls: 1,
      tool_executions: 1,
      tool_retries: 0,
      model_calls: 2,
      input_tokens: 1300,
      output_tokens: 90,
      virtual_ms: 12_000,
      duplicate_side_effects: 0,
      escalation: null,
      faults: { timeout: 1, rate_limit: 0 },
    },
    prompt: 'Fetch the user record.',
    events: [
      { type: 'agent_run.started', at: 0 },
      { type: 'agent.model.call', at: 1470, iteration: 1, inputTokens: 594, outputTokens: 52 },
      { type: 'agent.tool.call', at: 1470, id: 't0', tool: 'get_user', input: { user_id: '</script>' } },
      { type: 'agent.tool.fault', at: 11_470, tool: 'get_user', fault: 'timeout' },
      { type: 'agent.tool.retry', at: 11_470, tool: 'get_user', attempt: 1, delayMs: 1000, code: 'timeout' },
      { type: 'agent.tool.result', at: 12_000, id: 't0', tool: 'get_user', isError: true, content: `Error: ${EVIL}` },
      { type: 'agent.future.event', at: 12_000, before: 9000, after: 3000 },
      {
        type: 'agent.model.retry',
        at: 12_500,
        model: 'simulated',
        attempt: 1,
        delayMs: 500,
        errorClass: 'RateLimitError',
        status: 429,
      },
      { type: 'agent.model.call', at: 13_000, iteration: 2, inputTokens: 706, outputTokens: 38 },
      { type: 'agent_run.completed', at: 13_000, outcome: 'completed' },
    ],
    assistant_texts: ['I will fetch the user first.', `Done ${EVIL}`],
    events_omitted: 0,
    outbox: [],
    ...overrides,
  };
}

describe('renderTimeline', () => {
  it('shows each model call with what the model said, tool calls with their faults and retries, and the verdict', () => {
    const text = renderTimeline(trace(), 'run-1').toString();
    expect(text).toContain('<article class="run" id="run-1">');
    expect(text).toMatch(/call 1 <span class="muted">· 594 in \/ 52 out<\/span> <q>I will fetch the user first\.<\/q>/);
    expect(text).toContain('injected <b>timeout</b> on get_user');
    expect(text).toContain('automatic retry 1 after timeout, waited 1.0 s');
    expect(text).toContain('model call failed (RateLimitError, HTTP 429): retry 1 of simulated after 0.5 s');
    expect(text).toContain('<b>Verdict: failure</b> — nothing was written to the outbox');
    expect(text).toContain('faults injected: timeout 1');
  });

  it('escapes every string from the trace: names, arguments, results, what the model said', () => {
    const text = renderTimeline(trace(), 'run-1').toString();
    expect(text).not.toContain('<img');
    expect(text).not.toContain('</script>');
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt; · none · seed 6');
    expect(text).toContain('{&quot;user_id&quot;:&quot;&lt;/script&gt;&quot;}');
    expect(text).toContain(
      '<code class="cmd"><span class="nw">spiralbench replay</span> <span class="nw">--scenario &lt;img src=x onerror=alert(1)&gt;</span> <span class="nw">--arm none</span> <span class="nw">--seed 6</span></code>',
    );
  });

  it("says why a failed run failed, from its record's failure_reason, escaped", () => {
    const failed = trace({
      record: {
        ...trace().record,
        outcome: 'failed',
        failure_reason: { error_class: 'AuthenticationError', status: 401, message: `invalid key ${EVIL}` },
      },
    });
    const text = renderTimeline(failed, 'run-1').toString();
    expect(text).toContain(
      '<p class="failure"><b>Failed on:</b> AuthenticationError (HTTP 401): invalid key &lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(text).not.toContain('<img');
    const refused = trace({
      record: {
        ...trace().record,
        outcome: 'failed',
        failure_reason: { error_class: 'APIConnectionError', status: null, message: 'Connection error.' },
      },
    });
    expect(renderTimeline(refused, 'run-1').toString()).toContain(
      '<b>Failed on:</b> APIConnectionError (no HTTP status): Connection error.</p>',
    );
    expect(renderTimeline(trace(), 'run-1').toString()).not.toContain('Failed on');
  });

  it('shows an event type it does not know with its fields', () => {
    expect(renderTimeline(trace(), 'run-1').toString()).toContain(
      'agent.future.event <code>{&quot;before&quot;:9000,&quot;after&quot;:3000}</code>',
    );
  });

  it('marks where the middle of a long run was left out, and lines the tail calls up with the last texts', () => {
    const head = Array.from({ length: 300 }, (_, i) => ({
      type: 'agent.model.call',
      at: i,
      iteration: i + 1,
      inputTokens: 1,
      outputTokens: 1,
    }));
    const tail = Array.from({ length: 100 }, (_, i) => ({
      type: 'agent.model.call',
      at: 1000 + i,
      iteration: 901 + i,
      inputTokens: 1,
      outputTokens: 1,
    }));
    const texts = Array.from({ length: 1000 }, (_, i) => `text ${i + 1}`);
    const text = renderTimeline(
      trace({ events: [...head, ...tail], assistant_texts: texts, events_omitted: 600 }),
      'run-2',
    ).toString();
    expect(text).toContain('600 events of the middle of this run are not saved');
    expect(text).toMatch(/call 300 .*<q>text 300<\/q>/);
    expect(text).toMatch(/call 901 .*<q>text 901<\/q>/);
    expect(text).toMatch(/call 1000 .*<q>text 1000<\/q>/);
    expect(text.indexOf('not saved')).toBeGreaterThan(text.indexOf('call 300 '));
    expect(text.indexOf('not saved')).toBeLessThan(text.indexOf('call 901 '));
  });
});

describe('clip', () => {
  it('keeps short text on one line and cuts long text, saying how long it was', () => {
    expect(clip('a\n  b', 10)).toBe('a b');
    expect(clip('x'.repeat(2000), 10)).toBe('xxxxxxxxx… (2,000 chars)');
  });
});
