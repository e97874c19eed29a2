import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type AgentEnding, type AgentPort, runAgentLoop } from '../examples/serve/agent.js';
import type { AgentResult } from '../src/agents/agent-result.js';
import { defineAgent } from '../src/agents/define-agent.js';
import type { RunRecord } from '../src/results/run-record-schema.js';
import { BIN, tempDir } from './cli-helpers.js';

/** What `spiralbench serve` prints on its first stdout line. */
export interface ServeAbout {
  readonly url: string;
  readonly anthropic_base_url: string;
  readonly mcp_url: string;
  readonly [field: string]: unknown;
}

/** A running `spiralbench serve`: its first line, and its exit with everything it printed. */
export interface ServeProcess {
  readonly child: ChildProcess;
  readonly about: ServeAbout;
  /** Resolves once a line containing `text` has been printed on stderr. */
  stderrLine(text: string): Promise<string>;
  readonly exited: Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>;
}

/**
 * Spawns the built CLI's `serve` with `args` (no key in its environment), in `cwd`, and
 * waits for its JSON line. Without `cwd` it runs in a fresh temporary folder, so a default
 * or relative `--out` can never land in the repository.
 */
export async function startServe(
  args: readonly string[],
  cwd: string = tempDir('spiralbench-serve-cwd-'),
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<ServeProcess> {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
  });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ readonly text: string; readonly resolve: (line: string) => void }> = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr += `${line}\n`;
    for (const wait of [...waiting])
      if (line.includes(wait.text)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(line);
      }
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  const about = await new Promise<ServeAbout>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (stdout === '') resolve(JSON.parse(line) as ServeAbout);
      stdout += `${line}\n`;
    });
    void exited.then(({ code }) => reject(new Error(`serve exited (${code}) before printing its URLs:\n${stderr}`)));
  });
  return {
    child,
    about,
    exited,
    stderrLine: (text) => {
      const seen = stderr.split('\n').find((line) => line.includes(text));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiting.push({ text, resolve }));
    },
  };
}

/** A results folder's runs, in file order. */
export function readRuns(dir: string): RunRecord[] {
  return readFileSync(join(dir, 'runs.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RunRecord);
}

/** A raw request with a (fake) key on it: the answer's status, headers and body as text. */
export async function request(
  url: string,
  body: unknown,
  key: string,
  method = 'POST',
): Promise<{ readonly status: number; readonly text: string; readonly headers: string }> {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': key,
      authorization: `Bearer ${key}`,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text(), headers: JSON.stringify([...response.headers]) };
}

/** The examples' loop (examples/serve/agent.ts and agent.py are one loop), in-process: the context's client, and its tools with failures as text. */
export const inProcess = defineAgent({
  name: 'ts-agent',
  run: async (ctx): Promise<AgentResult> => {
    const port: AgentPort = {
      anthropic: ctx.anthropic,
      system: ctx.system,
      messages: ctx.messages,
      tools: ctx.tools.anthropic,
      model: ctx.modelId,
      maxTokens: ctx.maxTokens,
      callTool: async (name, input) => {
        try {
          return { text: await ctx.tools.call(name, input), isError: false };
        } catch (error) {
          return { text: (error as Error).message, isError: true };
        }
      },
    };
    return asResult(await runAgentLoop(port));
  },
});

function asResult(ending: AgentEnding): AgentResult {
  switch (ending.outcome) {
    case 'completed':
      return { outcome: 'completed', finalText: ending.final_text };
    case 'failed':
      return { outcome: 'failed', reason: ending.reason };
    case 'max_iterations':
      return { outcome: 'max_iterations' };
  }
}

/**
 * What must be equal, run by run, between the served and the in-process agent: everything
 * the run did and was judged on. Not failure_reason: a served agent's failure is recorded as
 * it reported it (AgentReportedFailure), which an in-process agent's thrown error is not.
 */
export const same = (record: RunRecord) => ({
  seed: record.seed,
  verdict: record.verdict,
  verdict_reason: record.verdict_reason,
  outcome: record.outcome,
  duplicate_side_effects: record.duplicate_side_effects,
  refetch_calls: record.refetch_calls,
  cost_usd: record.cost_usd,
  faults: record.faults,
  model_faults: record.model_faults,
  tool_calls: record.tool_calls,
  tool_executions: record.tool_executions,
  model_calls: record.model_calls,
  input_tokens: record.input_tokens,
  output_tokens: record.output_tokens,
  virtual_ms: record.virtual_ms,
});
