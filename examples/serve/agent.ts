/**
 * An agent in its own process, benchmarked by `spiralbench serve`: the official Anthropic
 * SDK for the model, the official MCP TypeScript client for the tools, and the run API to
 * start each run and end it with its verdict. The loop itself (`runAgentLoop`) knows
 * nothing of spiralbench: it gets a client, a way to call a tool, and the task.
 *
 *   spiralbench serve -s fetch-transform-write -n 20 -o results/served --arm ts-agent
 *   npx tsx examples/serve/agent.ts http://127.0.0.1:8788 20
 */
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** What the loop is given: a model client, the tools, and the task. */
export interface AgentPort {
  readonly anthropic: Anthropic;
  /** Runs one tool; a failure comes back as text with `isError`, never as a throw. */
  callTool(name: string, input: unknown): Promise<{ readonly text: string; readonly isError: boolean }>;
  readonly system: string;
  readonly messages: readonly MessageParam[];
  readonly tools: Tool[];
  readonly model: string;
  readonly maxTokens: number;
}

/** How the loop ended, in the shape `POST /runs/<id>/end` takes. */
export type AgentEnding =
  | { readonly outcome: 'completed'; readonly final_text: string }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'max_iterations' };

const MAX_TURNS = 30;
const MODEL_ATTEMPTS = 3;

/** A plain tool-use loop: call the model, run the tools it asks for, until it answers in text. */
export async function runAgentLoop(port: AgentPort): Promise<AgentEnding> {
  const history: MessageParam[] = [...port.messages];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    let reply: Anthropic.Message | undefined;
    for (let attempt = 1; reply === undefined; attempt++) {
      try {
        reply = await port.anthropic.messages.create({
          model: port.model,
          max_tokens: port.maxTokens,
          system: port.system,
          messages: history,
          tools: port.tools,
        });
      } catch (error) {
        // A rate limit, an overloaded or dropped API: try again a few times, then give up.
        if (attempt >= MODEL_ATTEMPTS) return { outcome: 'failed', reason: `model call failed: ${String(error)}` };
      }
    }
    history.push({ role: 'assistant', content: reply.content });
    const calls = reply.content.filter((block) => block.type === 'tool_use');
    if (calls.length === 0) {
      const text = reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      return { outcome: 'completed', final_text: text };
    }
    const results: ToolResultBlockParam[] = [];
    for (const call of calls) {
      const { text, isError } = await port.callTool(call.name, call.input);
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: text,
        ...(isError ? { is_error: true } : {}),
      });
    }
    history.push({ role: 'user', content: results });
  }
  return { outcome: 'max_iterations' };
}

/** What `POST /runs` answers. */
interface StartedRun {
  readonly run_id: string;
  readonly seed: number;
  readonly system: string;
  readonly messages: MessageParam[];
  readonly model: string;
  readonly max_tokens: number;
  readonly anthropic_base_url: string;
  readonly mcp_url: string;
  readonly end_url: string;
}

/** POSTs `body` as JSON; `attempts` > 1 sends it again when the connection drops before an answer. */
async function post<T>(url: string, body: unknown, attempts = 1): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      if (attempt >= attempts) throw error;
      continue;
    }
    const answer = (await response.json()) as T;
    if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

/**
 * One run against a `spiralbench serve` at `serveUrl`: start it, connect the clients to
 * its URLs, run the loop, end it. Resolves to the run's record (its `verdict` judged on
 * the world). `seed` picks the run; without it serve gives the next one.
 */
export async function runServed(
  serveUrl: string,
  options: { readonly seed?: number; readonly apiKey?: string } = {},
): Promise<{ readonly seed: number; readonly verdict: string; readonly [field: string]: unknown }> {
  const run = await post<StartedRun>(`${serveUrl}/runs`, options.seed === undefined ? {} : { seed: options.seed });
  // serve never reads the key: a real one would be safe, a placeholder does as well.
  const anthropic = new Anthropic({
    baseURL: run.anthropic_base_url,
    apiKey: options.apiKey ?? 'unused',
    maxRetries: 0,
  });
  const mcp = new Client({ name: 'example-agent', version: '1.0.0' });
  let ending: AgentEnding;
  try {
    await mcp.connect(new StreamableHTTPClientTransport(new URL(run.mcp_url)));
    const listed = await mcp.listTools();
    const tools: Tool[] = listed.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: tool.inputSchema as Tool['input_schema'],
    }));
    ending = await runAgentLoop({
      anthropic,
      tools,
      system: run.system,
      messages: run.messages,
      model: run.model,
      maxTokens: run.max_tokens,
      callTool: async (name, input) => {
        try {
          const result = await mcp.callTool({ name, arguments: input as Record<string, unknown> });
          const blocks = result.content as ReadonlyArray<{ readonly type: string; readonly text?: string }>;
          const text = blocks.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');
          return { text, isError: result.isError === true };
        } catch (error) {
          // A timeout (-32001) or a dropped connection (-32603): the tool's own words, without the client's prefix.
          const text = error instanceof McpError ? error.message.replace(/^MCP error -?\d+: /, '') : String(error);
          return { text, isError: true };
        }
      },
    });
  } catch (error) {
    ending = { outcome: 'failed', reason: String(error) };
  } finally {
    await mcp.close();
  }
  // An ending is safe to send again: serve answers the same ending with the same record.
  return post(run.end_url, ending, 3);
}

/** `npx tsx examples/serve/agent.ts <serve url> <runs> [concurrency]`: every run, a few at once. */
async function main(serveUrl: string, runs: number, concurrency: number): Promise<void> {
  let started = 0;
  const worker = async () => {
    while (started < runs) {
      started += 1;
      const record = await runServed(serveUrl);
      process.stdout.write(`seed ${record.seed}: ${record.verdict}\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs) }, worker));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url = 'http://127.0.0.1:8788', runs = '20', concurrency = '4'] = process.argv.slice(2);
  await main(url.replace(/\/$/, ''), Number(runs), Number(concurrency));
}
