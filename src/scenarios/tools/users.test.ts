import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../memo/frozen-json.js';
import { createWorld } from '../../tools/world.js';
import { searchUsers, transformRecord, transformUserRecord } from './users.js';

const RECORD = { id: 'u_1042', name: ' Ada   Lovelace ', email: ' Ada.Lovelace@Example.COM ', plan: 'pro' };
const world = createWorld({ records: {} });

describe('transform_record', () => {
  it('answers a frozen record with one shared, frozen transform, and an open one afresh', () => {
    const expected = transformUserRecord(RECORD);
    expect(expected).toEqual({
      id: 'u_1042',
      display_name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      email_domain: 'example.com',
      initials: 'AL',
    });
    const frozen = deepFreeze({ ...RECORD });
    const first = transformRecord.run({ record: frozen }, world);
    expect(first).toEqual(expected);
    expect(transformRecord.run({ record: frozen }, world)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);

    const open = { ...RECORD };
    const fresh = transformRecord.run({ record: open }, world);
    open.name = 'Grace Hopper';
    expect(transformRecord.run({ record: open }, world)).toMatchObject({
      display_name: 'Grace Hopper',
      initials: 'GH',
    });
    expect(fresh).toEqual(expected);
  });
});

describe('search_users', () => {
  it('answers a query over the shared starting users with one frozen answer, and over open users afresh', () => {
    const start = {
      records: { users: { u_1: { id: 'u_1', name: 'Ada Lovelace' }, u_2: { id: 'u_2', name: 'Grace Hopper' } } },
    };
    const shared = createWorld(start);
    const first = searchUsers.run({ query: 'Lovelace' }, shared);
    expect(first).toEqual({ query: 'lovelace', matches: [{ id: 'u_1', name: 'Ada Lovelace' }] });
    expect(searchUsers.run({ query: 'lovelace' }, createWorld(start))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);

    const open = { records: { users: { u_3: { id: 'u_3', name: 'Ada Byron' } } }, outbox: [] };
    expect(searchUsers.run({ query: 'ada' }, open)).toEqual({
      query: 'ada',
      matches: [{ id: 'u_3', name: 'Ada Byron' }],
    });
    open.records.users = { u_3: { id: 'u_3', name: 'Someone Else' } };
    expect(searchUsers.run({ query: 'ada' }, open)).toEqual({ query: 'ada', matches: [] });
  });
});
