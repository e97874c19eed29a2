import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { readOtlpTrajectories } from './otlp-trajectories.js';
import type { Trajectory } from './trajectory.js';

const dir = mkdtempSync(join(tmpdir(), 'spiralbench-otlp-'));
const string = (key: string, value: string) => ({ key, value: { stringValue: value } });

function span(trace: string, at: number, attributes: unknown[], extra: Record<string, unknown> = {}) {
  return { traceId: trace, spanId: `s${at}`, name: 'span', startTimeUnixNano: String(at), attributes, ...extra };
}
const chat = (trace: string, at: number) => span(trace, at, [string('gen_ai.operation.name', 'chat')]);
const tool = (trace: string, at: number, name: string, args: string, result: string, error = false) =>
  span(trace, at, [
    string('gen_ai.operation.name', 'execute_tool'),
    string('gen_ai.tool.name', name),
    string('gen_ai.tool.call.arguments', args),
    string('gen_ai.tool.call.result', result),
    ...(error ? [string('error.type', 'tool_error')] : []),
  ]);

function write(spans: unknown[]): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }, null, 2));
  return path;
}

describe('readOtlpTrajectories', () => {
  it('turns each trace into a run: chat spans open turns, tool spans after them are their calls', async () => {
    const path = write([
      tool('A', 3, 'get_user', '{"id":"u_1"}', 'Error: user not found', true),
      chat('A', 1),
      tool('A', 2, 'get_user', '{"id":"u_0"}', '{"id":"u_0"}'),
      chat('A', 5),
      chat('A', 9),
      tool('A', 6, 'ask_human', '{}', 'ok'),
    ]);
    const runs: Trajectory[] = [];
    expect(await readOtlpTrajectories(path, (run) => runs.push(run))).toBe(1);
    expect(runs).toEqual([
      {
        id: 'A',
        turns: [
          {
            calls: [
              { name: 'get_user', input: { id: 'u_0' }, result: { text: '{"id":"u_0"}' } },
              { name: 'get_user', input: { id: 'u_1' }, result: { text: 'Error: user not found', is_error: true } },
            ],
          },
          { calls: [{ name: 'ask_human', input: {}, result: { text: 'ok' } }] },
          { text: '' },
        ],
      },
    ]);
  });

  it('refuses tool spans without their arguments or result text, naming the span and the attributes', async () => {
    const path = write([
      span('A', 1, [string('gen_ai.operation.name', 'execute_tool'), string('gen_ai.tool.name', 'get_user')], {
        spanId: 'abc',
        name: 'execute_tool get_user',
      }),
    ]);
    const failure = await readOtlpTrajectories(path, () => {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UserInputError);
    expect((failure as Error).message).toContain(
      'span abc (execute_tool get_user): tool spans carrying gen_ai.tool.call.arguments and gen_ai.tool.call.result',
    );
    expect((failure as Error).message).toContain("spiralbench's own --otel export records neither");
  });
});
