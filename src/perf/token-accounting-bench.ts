import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { Bench } from 'tinybench';
import { exactBlockTokens, exactRequestTokens, loadCl100k } from '../model/exact-token-count.js';
import { DEFAULT_MODEL_ID, type ModelRequest } from '../model/model-client.js';
import { blockTokens, requestTokens } from '../model/token-estimate.js';
import type { Scenario } from '../scenarios/loader.js';
import { ARM_PRESETS, type Arm } from '../arms/arms.js';
import { runOne } from '../arms/run-one.js';

export interface TokenBenchRow {
  readonly task: string;
  /** Model calls (requests) per benchmark iteration. */
  readonly steps: number;
  readonly usPerStep: number;
  /** Relative margin of error of the mean, in percent. */
  readonly rme: number;
}

export interface TokenBenchOptions {
  readonly scenario: Scenario;
  /** Seeds whose requests are counted per iteration. @default 20 */
  readonly seeds?: number;
  /** Measuring time per task, in ms. @default 1000 */
  readonly timeMs?: number;
}

function blocksTokens(messages: readonly MessageParam[], count: (block: { type: string }) => number): number {
  let tokens = 0;
  for (const message of messages) {
    if (typeof message.content === 'string')
      tokens += count({ type: 'text', text: message.content } as { type: string });
    else for (const block of message.content) tokens += count(block);
  }
  return tokens;
}

/**
 * What token accounting costs per loop step, on the requests of real runs (the `none` arm
 * of `scenario`): the estimate of a whole request as the loop sends it (one live array
 * that grows; less the baseline of the pushes themselves), the estimate of request arrays
 * sent in turn, more of them than readings are kept for (each read afresh, as the SDK
 * path's new arrays are), the one-time count of each message spread over the steps,
 * the estimate recomputed from scratch every step (what the caches save), and the exact
 * cl100k_base count, first-time and cached.
 */
export async function benchTokenAccounting(options: TokenBenchOptions): Promise<TokenBenchRow[]> {
  const { scenario } = options;
  const seeds = options.seeds ?? 20;
  const arm = ARM_PRESETS.get('none') as Arm;
  const requests: ModelRequest[] = [];
  const transcripts: MessageParam[][] = [];
  // Per run, where each request ends in its transcript: the loop sends one live array, pushed to.
  const runs: { readonly transcript: MessageParam[]; readonly ends: number[] }[] = [];
  const tools = scenario.tools.map((tool) => tool.definition);
  for (let seed = 1; seed <= seeds; seed++) {
    const { result } = await runOne({ sweepSeed: 0, scenario, arm, seed });
    const messages = [...result.messages];
    transcripts.push(messages);
    // Each request the run sent is a prefix of its transcript that ends with a user message.
    const ends: number[] = [];
    messages.forEach((message, i) => {
      if (message.role !== 'user') return;
      ends.push(i + 1);
      requests.push({
        model: DEFAULT_MODEL_ID,
        max_tokens: 1024,
        system: scenario.system,
        tools,
        messages: messages.slice(0, i + 1),
      });
    });
    runs.push({ transcript: messages, ends });
  }
  const steps = requests.length;
  const encoding = await loadCl100k();
  let sink = 0;
  const bench = new Bench({ time: options.timeMs ?? 1000, warmupTime: 200 });
  bench
    .add('estimate of the whole request, as the loop sends it', () => {
      // One live array per run, pushed to step by step, as the loop does.
      for (const { transcript, ends } of runs) {
        const live: MessageParam[] = [];
        const request: ModelRequest = {
          model: DEFAULT_MODEL_ID,
          max_tokens: 1024,
          system: scenario.system,
          tools,
          messages: live,
        };
        for (const end of ends) {
          while (live.length < end) live.push(transcript[live.length]!);
          sink += requestTokens(request);
        }
      }
    })
    .add('(baseline: the same pushes, without counting)', () => {
      for (const { transcript, ends } of runs) {
        const live: MessageParam[] = [];
        for (const end of ends) {
          while (live.length < end) live.push(transcript[live.length]!);
          sink += live.length;
        }
      }
    })
    // Every run's requests in turn: far more arrays than readings are kept for
    // (KEPT_TRANSCRIPTS), so each is read afresh, as it would be with that many runs in flight.
    .add('estimate of request arrays sent in turn, more than are kept (each read afresh)', () => {
      for (const request of requests) sink += requestTokens(request);
    })
    .add('estimate: first count of each message, spread over the steps', () => {
      for (const messages of transcripts) sink += blocksTokens(messages, blockTokens);
    })
    .add('estimate recomputed every step (no cache)', () => {
      for (const request of requests) sink += blocksTokens(request.messages, blockTokens);
    })
    .add('cl100k exact of the whole request, messages cached', () => {
      for (const request of requests) sink += exactRequestTokens(encoding, request);
    })
    .add('cl100k exact: first count of each message, spread over the steps', () => {
      for (const messages of transcripts) sink += blocksTokens(messages, (block) => exactBlockTokens(encoding, block));
    });
  await bench.run();
  if (sink < 0) throw new Error('unreachable');
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result === undefined || !('latency' in result))
      throw new Error(`benchmark task '${task.name}' did not complete`);
    return { task: task.name, steps, usPerStep: (result.latency.mean * 1000) / steps, rme: result.latency.rme };
  });
}
