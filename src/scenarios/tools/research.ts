import { notFound } from '../../tools/tool-error.js';
import type { Json } from '../../tools/world.js';
import { collection, isRecord, requireString } from './tool-input.js';
import type { ToolSpec } from '../../tools/tool-spec.js';

/** Lower-case words of three letters or more: what a plain keyword search matches on. */
function terms(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
}

/** True when every term of the query appears in the text. */
function matchesAll(query: string, text: string): boolean {
  const haystack = new Set(terms(text));
  const needles = terms(query);
  return needles.length > 0 && needles.every((term) => haystack.has(term));
}

export const readSource: ToolSpec = {
  definition: {
    name: 'read_source',
    description:
      'Read one source document from the research library by id. Returns its title, author, year, key finding and full text.',
    input_schema: {
      type: 'object',
      properties: { source_id: { type: 'string', description: 'The source id, e.g. "src_01".' } },
      required: ['source_id'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 900,
  run(input, world) {
    const id = requireString(input, 'source_id');
    const source = collection(world, 'sources')[id];
    if (source === undefined) throw notFound(`no source with id '${id}'`);
    return source;
  },
};

export const searchSources: ToolSpec = {
  definition: {
    name: 'search_sources',
    description:
      'Search the research library. Returns up to 5 sources (id and title) whose title or text contains every word of the query.',
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords.' } },
      required: ['query'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 500,
  run(input, world) {
    const query = requireString(input, 'query');
    const matches: Json[] = [];
    for (const [id, source] of Object.entries(collection(world, 'sources'))) {
      if (matches.length === 5) break;
      if (isRecord(source) && matchesAll(query, `${String(source['title'])} ${String(source['text'])}`))
        matches.push({ id, title: source['title'] ?? null });
    }
    return { query, matches };
  },
};

export const searchKnowledgeBase: ToolSpec = {
  definition: {
    name: 'search_knowledge_base',
    description:
      'Search the internal knowledge base. Returns up to 3 articles (id, title, answer) that contain every word of the query.',
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords or a question.' } },
      required: ['query'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 700,
  run(input, world) {
    const query = requireString(input, 'query');
    const results: Json[] = [];
    for (const [id, article] of Object.entries(collection(world, 'articles'))) {
      if (results.length === 3) break;
      if (isRecord(article) && matchesAll(query, `${String(article['title'])} ${String(article['answer'])}`)) {
        results.push({ id, title: article['title'] ?? null, answer: article['answer'] ?? null });
      }
    }
    // The words a reader of the result goes by: an empty list says less than a sentence.
    return results.length > 0 ? { query, results } : { query, results, message: 'No results found for this query.' };
  },
};
