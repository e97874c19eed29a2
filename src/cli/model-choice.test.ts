import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { DEFAULT_REAL_CONCURRENCY, selectModel, type ModelFlags } from './model-choice.js';
import { argvForRecord, parseBaseUrl } from './base-url.js';

const problem = async (flags: ModelFlags, env: NodeJS.ProcessEnv = {}): Promise<string> => {
  try {
    await selectModel(flags, env);
  } catch (error) {
    if (error instanceof UserInputError) return error.message;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(flags)}`);
};

describe('selectModel', () => {
  it('keeps the simulated model when no real model is named', async () => {
    expect((await selectModel({ via: 'in-process' }, {})).source).toMatchObject({
      name: 'simulated',
      portable: 'simulated',
      viaSdk: false,
    });
    expect((await selectModel({ via: 'sdk' }, {})).source).toMatchObject({
      name: 'simulated-sdk',
      portable: 'simulated-sdk',
      viaSdk: true,
    });
  });

  it('refuses real-model flags without --model, and each bad combination, naming the flag', async () => {
    expect(await problem({ via: 'in-process', provider: 'openai-compatible' })).toMatch(
      /^--provider: applies to a real model only: name one with --model/,
    );
    expect(await problem({ via: 'in-process', baseUrl: 'http://localhost:8000/v1' })).toMatch(
      /^--base-url: applies to a real model only/,
    );
    expect(await problem({ via: 'in-process', concurrency: 3 })).toMatch(
      /^--concurrency: applies to a real model only/,
    );
    expect(await problem({ via: 'in-process', model: 'x', provider: 'bedrock' })).toBe(
      "--provider: one of anthropic, openai-compatible, got 'bedrock'",
    );
    expect(
      await problem({ via: 'sdk', model: 'claude-sonnet-4-5' }, { ANTHROPIC_API_KEY: 'sk-ant-0123456789' }),
    ).toMatch(/^--via: sdk serves the simulated model/);
    expect(await problem({ via: 'in-process', model: 'llama3.1', provider: 'openai-compatible' })).toMatch(
      /^--base-url: the server to use with --provider openai-compatible, e\.g\. http:\/\/localhost:11434\/v1 \(Ollama\)/,
    );
    expect(await problem({ via: 'in-process', model: 'claude-sonnet-4-5' })).toMatch(
      /^--model: a real model needs ANTHROPIC_API_KEY set/,
    );
    expect(
      await problem({ via: 'in-process', model: 'm', provider: 'openai-compatible', baseUrl: 'ftp://host/v1' }),
    ).toBe('--base-url: an http:// or https:// URL, got a ftp: URL');
  });

  it('builds an OpenAI-compatible client for a local server without a key, labelled with provider and model', async () => {
    const { source, real } = await selectModel(
      { via: 'in-process', model: 'qwen2.5', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1' },
      {},
    );
    expect([source.kind, source.name, source.portable]).toEqual(['real', 'openai-compatible:qwen2.5', null]);
    expect(real).toEqual({
      provider: 'openai-compatible',
      modelId: 'qwen2.5',
      endpoint: 'http://127.0.0.1:8080/v1',
      local: true,
      concurrency: DEFAULT_REAL_CONCURRENCY,
    });
  });

  it('takes the Anthropic endpoint from --base-url, else ANTHROPIC_BASE_URL, else the API', async () => {
    const env = { ANTHROPIC_API_KEY: 'sk-ant-0123456789' };
    expect((await selectModel({ via: 'in-process', model: 'claude-haiku-4-5' }, env)).real?.endpoint).toBe(
      'https://api.anthropic.com',
    );
    expect(
      (
        await selectModel(
          { via: 'in-process', model: 'claude-haiku-4-5' },
          { ...env, ANTHROPIC_BASE_URL: 'http://10.0.0.5:4000' },
        )
      ).real,
    ).toMatchObject({ endpoint: 'http://10.0.0.5:4000', local: true });
    expect(
      (
        await selectModel(
          {
            via: 'in-process',
            model: 'claude-haiku-4-5',
            baseUrl: 'https://proxy.example.com/anthropic',
            concurrency: 2,
          },
          env,
        )
      ).real,
    ).toMatchObject({ endpoint: 'https://proxy.example.com/anthropic', local: false, concurrency: 2 });
  });
});

describe('parseBaseUrl', () => {
  it('never shows credentials a URL may carry, and keeps them for redaction', () => {
    // A user and password are refused outright (base-url.test.ts); a key in the query is kept secret.
    const url = parseBaseUrl('https://gateway.example.com/v1?api-key=sk%40secret-123');
    expect(url.display).toBe('https://gateway.example.com/v1');
    expect(url.secrets).toEqual(['api-key=sk%40secret-123', 'api-key=sk@secret-123']);
  });

  it('keeps a malformed escape as written instead of failing without naming the flag', () => {
    expect(parseBaseUrl('http://127.0.0.1:1/v1?key=sk-%zz-secret').secrets).toEqual(['key=sk-%zz-secret']);
  });

  it('writes a command line down with URL flags cut to their origin and path', () => {
    const argv = [
      'run',
      '--model',
      'm',
      '--base-url',
      'http://alice:secret-pass-99@127.0.0.1:1/v1?api_key=sk-proxy-secret-123456',
      '--model-url=http://u:p@127.0.0.1:2/runs?k=secret-key-42',
    ];
    const written = argvForRecord(argv).join(' ');
    expect(written).toBe('run --model m --base-url http://127.0.0.1:1/v1 --model-url=http://127.0.0.1:2/runs');
    expect(argvForRecord(['run', '--base-url', 'not a url'])).toEqual(['run', '--base-url', '<url>']);
  });

  it('calls loopback and private addresses local, anything else not', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '[::1]',
      '192.168.1.20',
      '10.1.2.3',
      '172.20.0.2',
      'ollama.localhost',
    ])
      expect(parseBaseUrl(`http://${host}:1/v1`).local, host).toBe(true);
    for (const host of [
      'api.openai.com',
      '172.32.0.1',
      '8.8.8.8',
      'fdhost.example.com',
      '10.api.example.com',
      '127.example.com',
    ])
      expect(parseBaseUrl(`https://${host}/v1`).local, host).toBe(false);
  });
});
