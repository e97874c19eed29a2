// The viewer's query parameters, each checked: a bad one is a 400 that names it.
import { ServeRefusal } from '../serve/serve-refusal.js';
import { MAX_PAGE, type RunQuery, SORT_KEYS, type SortKey } from './run-table.js';

/** A parameter that must be given and not be empty. */
export function required(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw new ServeRefusal(400, 'bad_query', `${name}: required`);
  return value;
}

/** A whole-number parameter; undefined when not given. */
export function whole(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw new ServeRefusal(400, 'bad_query', `${name}: a whole number, got '${value}'`);
  return Number(value);
}

/** What `/runs` asks of the run table: filters, sort, order and page. */
export function runQuery(query: URLSearchParams): RunQuery {
  const text = (name: string) => {
    const value = query.get(name);
    return value === null || value === '' ? {} : { [name]: value };
  };
  const sort = query.get('sort') ?? 'seed';
  if (!(SORT_KEYS as readonly string[]).includes(sort))
    throw new ServeRefusal(400, 'bad_query', `sort: one of ${SORT_KEYS.join(', ')}, got '${sort}'`);
  const number = (name: string, key: keyof RunQuery) => {
    const value = whole(query, name);
    return value === undefined ? {} : { [key]: value };
  };
  const member = whole(query, 'member');
  if (member !== undefined && member < 0) throw new ServeRefusal(400, 'bad_query', `member: 0 or more, got ${member}`);
  const offset = whole(query, 'offset');
  if (offset !== undefined && offset < 0) throw new ServeRefusal(400, 'bad_query', `offset: 0 or more, got ${offset}`);
  const limit = whole(query, 'limit');
  if (limit !== undefined && (limit < 1 || limit > MAX_PAGE))
    throw new ServeRefusal(400, 'bad_query', `limit: from 1 to ${MAX_PAGE}, got ${limit}`);
  const order = query.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc')
    throw new ServeRefusal(400, 'bad_query', `order: asc or desc, got '${order}'`);
  return {
    ...text('scenario'),
    ...text('arm'),
    ...text('verdict'),
    ...text('outcome'),
    ...text('task'),
    ...text('fault'),
    ...text('event'),
    ...number('member', 'member'),
    ...number('seed_min', 'seedMin'),
    ...number('seed_max', 'seedMax'),
    ...number('offset', 'offset'),
    ...number('limit', 'limit'),
    sort: sort as SortKey,
    descending: order === 'desc',
  };
}
