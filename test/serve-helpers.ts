import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunRecord } from '../src/bench/run-record.js';
import { BIN } from './cli-helpers.js';

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

/** Spawns the built CLI's `serve` with `args` (no key in its environment), in `cwd`, and waits for its JSON line. */
export async function startServe(args: readonly string[], cwd?: string): Promise<ServeProcess> {
  const { ANTHROPIC_API_KEY: _key, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd === undefined ? {} : { cwd }),
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
