import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, secretsOf } from './process-secrets.js';

describe('secretsOf', () => {
  it("takes the providers' keys, and long values under names that end in a secret's word", () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-12345',
      OPENAI_API_KEY: 'unused',
      GITHUB_TOKEN: 'ghp_0123456789abcdefghij',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      npm_config__authToken: 'npm_0123456789abcdefghij',
      DB_PASSWORD: 'correct-horse-battery',
      SSH_KEY_PATH: '/home/someone/.ssh/id_ed25519',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXXXX/agent.12345',
      SHORT_TOKEN: 'abc123',
      HOME: '/home/someone/a-long-enough-path',
      SPACED_SECRET: 'not a secret because it has spaces',
    };
    expect(secretsOf(env).sort()).toEqual(
      [
        'sk-ant-12345',
        'ghp_0123456789abcdefghij',
        'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        'npm_0123456789abcdefghij',
        'correct-horse-battery',
      ].sort(),
    );
  });

  it('lists the longest first, so a secret holding another is replaced whole', () => {
    const secrets = secretsOf({ A_TOKEN: 'abcdefghijklmnop', B_TOKEN: 'abcdefghijklmnopqrstuvwxyz' });
    expect(redactSecrets('abcdefghijklmnopqrstuvwxyz', secrets)).toBe(REDACTED);
  });
});

describe('redactSecrets', () => {
  it('replaces a secret as written and as JSON escapes it, and leaves placeholders alone', () => {
    const secret = 'p@ss"word\\with-escapes';
    expect(redactSecrets(JSON.stringify({ key: secret }), [secret])).toBe(`{"key":"${REDACTED}"}`);
    expect(redactSecrets('none of it', ['none'])).toBe('none of it');
  });

  it("replaces a provider key's beginning where it was cut short, and no other secret's", () => {
    const key = 'sk-ant-api03-Zq9XvB7mK2pLr8Tq4Wn6Yc1Hd5Jf0Ug3Se7Vb2Xa9Mk';
    const quoted = `failed: ${key.slice(0, 25)}") and again ${key.slice(0, 30)}`;
    expect(redactSecrets(quoted, [key], [key])).toBe(`failed: ${REDACTED}") and again ${REDACTED}`);
    // A caller holding the key (a real model's client) looks for it cut short by default.
    expect(redactSecrets(`invalid x-api-key: ${key.slice(0, 40)}`, [key])).toBe(`invalid x-api-key: ${REDACTED}`);
    // The public prefix and a few characters past it are not the key.
    expect(redactSecrets(`format ${key.slice(0, 20)}…`, [key], [key])).toBe(`format ${key.slice(0, 20)}…`);
    // A secret that is not a provider's key is redacted whole only: a JWT's header is not a secret.
    const serviceRole = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoic2VydmljZSJ9.sig';
    const anon = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.xyz';
    expect(redactSecrets(`anon ${anon}`, [serviceRole], [])).toBe(`anon ${anon}`);
  });
});
