import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LiveCheckResult } from '../src/sweep/live-check.js';
import { cli, tempDir } from './cli-helpers.js';

// Live mode over real loopback sockets and real (scaled) time: a few seeds only. The tool
// timeout is a second, ten times what the healthy calls need on an idle machine: with 100 ms
// a call answered late on a loaded one (beside a 2-worker sweep) and timed out, a fault no
// seed had decided. Seeds 8 and 9 meet one timeout (a second each) and two malformed answers.
const LIVE_TIMEOUT_MS = 1000;

describe('spiralbench run --live', () => {
  it('runs end to end over loopback HTTP, labelled live in the header, records, summary, meta and report; the world and verdicts are a virtual run’s', () => {
    const live = tempDir();
    const virtual = tempDir();
    const args = ['run', '-s', 'fetch-transform-write', '-a', 'article', '--seed', '8', '-n', '2'];
    const result = cli([...args, '--live', '--live-timeout-ms', String(LIVE_TIMEOUT_MS), '-o', live]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^live: real HTTP on 127\.0\.0\.1, real time/);
    expect(result.stdout).toContain('model: simulated-live-http');
    const records = readFileSync(join(live, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record['model']).toBe('simulated-live-http');
      expect(record['live']).toMatchObject({
        mode: 'live',
        timeout_ms: LIVE_TIMEOUT_MS,
        // The scenario's 10 s tool timeout becomes the client's real one.
        time_scale: LIVE_TIMEOUT_MS / 10_000,
        fault_mismatches: 0,
      });
    }
    const summary = JSON.parse(readFileSync(join(live, 'summary.json'), 'utf8')) as {
      live?: { mode: string; timeout_ms: number };
    };
    expect(summary.live).toMatchObject({ mode: 'live', timeout_ms: LIVE_TIMEOUT_MS });
    const meta = JSON.parse(readFileSync(join(live, 'meta.json'), 'utf8')) as { live?: { mode: string } };
    expect(meta.live?.mode).toBe('live');
    const report = cli(['report', live, '--markdown']);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stdout).toContain('**live: real HTTP on 127.0.0.1');

    // The same seeds in virtual mode: no live label anywhere, and the same verdicts and faults.
    const plain = cli([...args, '-w', '1', '-o', virtual]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('live');
    expect(readFileSync(join(virtual, 'summary.json'), 'utf8')).not.toContain('"live"');
    const virtualRecords = readFileSync(join(virtual, 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(virtualRecords.some((record) => 'live' in record)).toBe(false);
    const pick = (record: Record<string, unknown>) => [
      record['seed'],
      record['verdict'],
      record['faults'],
      record['tool_executions'],
    ];
    expect(records.map(pick)).toEqual(virtualRecords.map(pick));
  });

  it('refuses --live with a real model, naming the flag', () => {
    const result = cli(['run', '-s', 'fetch-transform-write', '-n', '1', '--live', '--model', 'claude-haiku-4-5'], {
      ANTHROPIC_API_KEY: 'sk-ant-test',
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--live');
  });
});

describe('spiralbench live-check', () => {
  it('on a handful of seeds, every run meets the same faults and is handed the same classes live as virtually', () => {
    const out = tempDir();
    const result = cli([
      'live-check',
      '-s',
      'fetch-transform-write',
      '-a',
      'article',
      '--seed',
      '8',
      '-n',
      '2',
      '--live-timeout-ms',
      String(LIVE_TIMEOUT_MS),
      '-o',
      out,
    ]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('faults met match virtual:        2/2 (100.0%)');
    const check = JSON.parse(readFileSync(join(out, 'live-check.json'), 'utf8')) as LiveCheckResult;
    expect(check.live.mode).toBe('live');
    expect(check.runs).toHaveLength(2);
    // Faults did happen: a check over fault-free runs would prove nothing.
    expect(check.runs.flatMap((run) => run.live.calls).filter((call) => call.fault !== null).length).toBeGreaterThan(0);
    for (const run of check.runs) {
      expect(
        run.faults_match && run.classes_match && run.rendered_as_decided,
        JSON.stringify(run.first_difference),
      ).toBe(true);
      expect(run.live.calls.map((call) => [call.tool, call.fault, call.code])).toEqual(
        run.virtual.calls.map((call) => [call.tool, call.fault, call.code]),
      );
    }
  });
});
