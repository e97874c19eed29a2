import { clientModel, inProcessModel, type ModelSource, sdkModel } from '../run/model-source.js';
import type { RequestLimiterOptions } from '../model/rate-limit/request-limiter.js';
import { UserInputError } from '../user-input-error.js';
import { realAgentEndpoint } from '../run/real-endpoint.js';
import { parseBaseUrl } from './base-url.js';

export type Via = 'in-process' | 'sdk';

export const PROVIDERS = ['anthropic', 'openai-compatible'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Requests in flight at once against a real model unless `--concurrency` says otherwise. */
export const DEFAULT_REAL_CONCURRENCY = 4;

/** The model flags of `run` (and `replay`, which has only `via`). */
export interface ModelFlags {
  readonly via: string;
  readonly model?: string;
  /** @default 'anthropic' */
  readonly provider?: string;
  readonly baseUrl?: string;
  /** @default DEFAULT_REAL_CONCURRENCY, BATCH_CONCURRENCY with --batch */
  readonly concurrency?: number;
  /** Send the model calls through the Message Batches API (Claude only). @default false */
  readonly batch?: boolean;
  /** The first wait between two reads of a batch's status, in ms. @default 5000 */
  readonly batchPollMs?: number;
}

/** Runs in flight at once with --batch: each turn's batch holds one request of each. */
export const BATCH_CONCURRENCY = 100;

/** Where a --batch sweep keeps the batches it sent, and whether it resumes one that sent some. */
export interface BatchFolder {
  readonly dir: string;
  readonly resume: boolean;
}

/** What a real model is, for the cost estimate and the banner: never the key. */
export interface RealModelTarget {
  readonly provider: Provider;
  readonly modelId: string;
  /** Where requests go, safe to print (no user, password or query). */
  readonly endpoint: string;
  /** Loopback or a private network: a server of the user's own, with no price per token. */
  readonly local: boolean;
  readonly concurrency: number;
}

export interface ModelSelection {
  /** Built once here; every layer below reads its traits instead of asking which kind it is. */
  readonly source: ModelSource;
  /** Set for a real model. */
  readonly real?: RealModelTarget;
}

/**
 * The simulated model unless `--model` names a real one. A real model is reached through
 * its provider's own SDK (`@anthropic-ai/sdk`, or `openai` for an OpenAI-compatible
 * server), behind one request limiter for the whole sweep; keys are read here from the
 * environment only, and scrubbed from every error the client raises.
 */
export async function selectModel(
  flags: ModelFlags,
  env: NodeJS.ProcessEnv = process.env,
  limiter: Pick<RequestLimiterOptions, 'onHold'> = {},
  batchFolder?: BatchFolder,
): Promise<ModelSelection> {
  if (flags.via !== 'in-process' && flags.via !== 'sdk') {
    throw UserInputError.single('--via', '', `'in-process' or 'sdk', got '${flags.via}'`);
  }
  const provider = PROVIDERS.find((name) => name === (flags.provider ?? 'anthropic'));
  if (provider === undefined)
    throw UserInputError.single('--provider', '', `one of ${PROVIDERS.join(', ')}, got '${flags.provider}'`);
  if (flags.model === undefined) {
    for (const [flag, value] of [
      ['--provider', flags.provider],
      ['--base-url', flags.baseUrl],
      ['--concurrency', flags.concurrency],
      ['--batch', flags.batch === true ? true : undefined],
    ] as const) {
      if (value !== undefined)
        throw UserInputError.single(
          flag,
          '',
          `applies to a real model only: name one with --model (the simulated model runs in-process; use --workers for parallelism)`,
        );
    }
    return { source: flags.via === 'sdk' ? sdkModel() : inProcessModel() };
  }
  if (flags.via === 'sdk') {
    throw UserInputError.single(
      '--via',
      '',
      `sdk serves the simulated model through an SDK; a real model (--model) is always reached through its SDK: leave --via out`,
    );
  }
  const modelId = flags.model;
  const baseUrl = flags.baseUrl === undefined ? undefined : parseBaseUrl(flags.baseUrl);
  const concurrency = flags.concurrency ?? (flags.batch === true ? BATCH_CONCURRENCY : DEFAULT_REAL_CONCURRENCY);
  const [{ RequestLimiter }, { rateLimitedFetch }, { withRedactedErrors }] = await Promise.all([
    import('../model/rate-limit/request-limiter.js'),
    import('../model/rate-limit/rate-limited-fetch.js'),
    import('../model/secret-redaction.js'),
  ]);
  const fetch = rateLimitedFetch(new RequestLimiter({ concurrency, ...limiter }));
  if (provider === 'openai-compatible') {
    if (flags.batch === true)
      throw UserInputError.single(
        '--batch',
        '',
        'Claude (the Message Batches API); an OpenAI-compatible server has none',
      );
    if (baseUrl === undefined) {
      throw UserInputError.single(
        '--base-url',
        '',
        'the server to use with --provider openai-compatible, e.g. http://localhost:11434/v1 (Ollama), http://localhost:8000/v1 (vLLM) or http://localhost:8080/v1 (llama.cpp)',
      );
    }
    // Local servers usually take no key; the openai client insists on one, so a placeholder goes.
    const apiKey = nonEmpty(env['OPENAI_API_KEY']) ?? 'spiralbench-no-key';
    const { OpenAICompatibleModelClient } = await import('../model/openai/openai-compatible-client.js');
    const client = new OpenAICompatibleModelClient({
      apiKey,
      baseURL: baseUrl.href,
      fetch,
      name: `openai-compatible:${modelId}`,
    });
    const secrets = [apiKey, ...baseUrl.secrets];
    const agents = realAgentEndpoint({
      api: 'openai-chat',
      baseURL: baseUrl.href,
      auth: { authorization: `Bearer ${apiKey}` },
      secrets,
      fetch,
      modelId,
      label: client.name,
    });
    return {
      source: clientModel(withRedactedErrors(client, secrets), modelId, concurrency, { ...agents, api: 'openai-chat' }),
      real: { provider, modelId, endpoint: baseUrl.display, local: baseUrl.local, concurrency },
    };
  }
  const apiKey = nonEmpty(env['ANTHROPIC_API_KEY']);
  if (apiKey === undefined) {
    throw UserInputError.single(
      '--model',
      '',
      `a real model needs ANTHROPIC_API_KEY set; leave --model out to use the simulated model, or use --provider openai-compatible --base-url <url> for a local server`,
    );
  }
  const { AnthropicModelClient } = await import('../model/anthropic-client.js');
  const client = new AnthropicModelClient({
    apiKey,
    fetch,
    name: `anthropic:${modelId}`,
    ...(baseUrl === undefined ? {} : { baseURL: baseUrl.href }),
  });
  // Without --base-url the SDK reads ANTHROPIC_BASE_URL itself; say where requests go either way.
  const endpoint =
    baseUrl ?? parseBaseUrl(nonEmpty(env['ANTHROPIC_BASE_URL']) ?? 'https://api.anthropic.com', 'ANTHROPIC_BASE_URL');
  const secrets = [apiKey, ...endpoint.secrets];
  const agents = realAgentEndpoint({
    api: 'anthropic',
    baseURL: endpoint.href,
    auth: { 'x-api-key': apiKey },
    secrets,
    fetch,
    modelId,
    label: client.name,
  });
  const real = { provider, modelId, endpoint: endpoint.display, local: endpoint.local, concurrency };
  if (flags.batch === true) {
    const [{ BatchingModel }, journal] = await Promise.all([
      import('../model/batch/batching-model.js'),
      import('../results/batch-journal.js'),
    ]);
    if (batchFolder === undefined) throw new Error('--batch needs the results folder for its batches');
    const batching = new BatchingModel({
      api: client.batchApi(),
      name: client.name,
      sent: batchFolder.resume ? journal.readBatchJournal(batchFolder.dir) : [],
      record: (entry) => journal.appendBatchJournal(batchFolder.dir, entry),
      onLost: (id) =>
        process.stderr.write(
          `batch: ${id}, on record in ${journal.BATCH_JOURNAL_FILE}, is unknown to the API (another key or server, or its results expired): its requests are sent again\n`,
        ),
      ...(flags.batchPollMs === undefined ? {} : { pollMs: flags.batchPollMs }),
    });
    const perRun = { name: client.name, forRun: (run: string) => withRedactedErrors(batching.forRun(run), secrets) };
    return { source: clientModel(perRun, modelId, concurrency, { ...agents, api: 'anthropic' }), real };
  }
  return {
    source: clientModel(withRedactedErrors(client, secrets), modelId, concurrency, { ...agents, api: 'anthropic' }),
    real,
  };
}

/** The model source of a run, for commands that need no more than that. */
export async function chooseModel(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env): Promise<ModelSource> {
  return (await selectModel(flags, env)).source;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
