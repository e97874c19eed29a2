import { describe, expect, it } from 'vitest';
import { UserInputError } from '../user-input-error.js';
import { parseBaseUrl } from './base-url.js';

/** The UserInputError `parseBaseUrl(text, source)` throws; fails when it throws none. */
function refusal(text: string, source?: string): UserInputError {
  try {
    parseBaseUrl(text, source);
  } catch (error) {
    if (error instanceof UserInputError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe('parseBaseUrl and credentials in the URL', () => {
  it('refuses a user and password (fetch would send nothing), naming the flag but not the password', () => {
    for (const text of [
      'http://proxy-user:FAKE-URL-PASSWORD-42@127.0.0.1:8080/v1',
      'https://only-a-user@gateway.example.com/anthropic',
    ]) {
      const error = refusal(text);
      expect(error.problems).toHaveLength(1);
      expect(error.problems[0]?.source).toBe('--base-url');
      expect(error.message).toMatch(/a URL without user:password@/);
      expect(error.message).not.toContain('FAKE-URL-PASSWORD');
      expect(error.message).not.toContain('only-a-user');
    }
  });

  it('names the environment variable when the URL came from there', () => {
    expect(refusal('http://u:secret-password@127.0.0.1:1', 'ANTHROPIC_BASE_URL').problems[0]?.source).toBe(
      'ANTHROPIC_BASE_URL',
    );
  });

  it('still takes a key in the query string, kept secret', () => {
    const url = parseBaseUrl('https://gateway.example.com/v1?api-key=sk-secret-123');
    expect(url.href).toBe('https://gateway.example.com/v1?api-key=sk-secret-123');
    expect(url.display).toBe('https://gateway.example.com/v1');
    expect(url.secrets).toEqual(['api-key=sk-secret-123']);
  });
});
