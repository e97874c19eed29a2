import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../tools/world.js';
import { readSource, searchKnowledgeBase, searchSources } from './research.js';

const world = (): World =>
  createWorld({
    records: {
      sources: {
        src_01: {
          id: 'src_01',
          title: 'Canopy cover and heat',
          text: 'Street trees cool the street.',
          key_finding: 'Trees cool streets by 5 C.',
        },
        src_02: {
          id: 'src_02',
          title: 'Drought survival',
          text: 'Watering matters for young trees.',
          key_finding: 'Watering halves mortality.',
        },
      },
      articles: {
        kb_1: { title: 'Resetting your password', answer: 'Use the Forgot password link.' },
        kb_2: { title: 'Downloading an invoice', answer: 'Open Orders and choose Download invoice.' },
      },
    },
  });

describe('read_source', () => {
  it('returns the whole document, key finding included, and a 404 for an unknown id', () => {
    expect(readSource.sideEffecting).toBe(false);
    expect(readSource.run({ source_id: 'src_02' }, world())).toEqual({
      id: 'src_02',
      title: 'Drought survival',
      text: 'Watering matters for young trees.',
      key_finding: 'Watering halves mortality.',
    });
    expect(() => readSource.run({ source_id: 'src_99' }, world())).toThrow("no source with id 'src_99'");
  });
});

describe('search_sources', () => {
  it('matches sources whose title or text holds every word of the query', () => {
    expect(searchSources.run({ query: 'street trees' }, world())).toEqual({
      query: 'street trees',
      matches: [{ id: 'src_01', title: 'Canopy cover and heat' }],
    });
    expect(searchSources.run({ query: 'trees' }, world())).toMatchObject({
      matches: [{ id: 'src_01' }, { id: 'src_02' }],
    });
  });
});

describe('search_knowledge_base', () => {
  it('returns matching articles with their answers', () => {
    expect(searchKnowledgeBase.run({ query: 'password' }, world())).toEqual({
      query: 'password',
      results: [{ id: 'kb_1', title: 'Resetting your password', answer: 'Use the Forgot password link.' }],
    });
  });

  it('says in words that it found nothing when no article holds every word (the dead end)', () => {
    const result = searchKnowledgeBase.run({ query: 'refund policy Antarctica' }, world());
    expect(result).toEqual({
      query: 'refund policy Antarctica',
      results: [],
      message: 'No results found for this query.',
    });
    // Whole words only: "reset" does not find "Resetting".
    expect(searchKnowledgeBase.run({ query: 'reset password' }, world())).toMatchObject({
      results: [],
      message: 'No results found for this query.',
    });
  });
});
