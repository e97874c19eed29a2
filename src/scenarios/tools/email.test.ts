import { describe, expect, it } from 'vitest';
import { ToolError } from '../../tools/tool-error.js';
import { createWorld } from '../../tools/world.js';
import { listSentEmails, readInbox, sendEmail } from './email.js';

const MAIL = { to: 'grace@example.com', subject: 'Ready', body: 'Your export is ready.' };

describe('send_email', () => {
  it('is a side-effecting tool that appends one write per call, keyed by recipient', () => {
    expect(sendEmail.sideEffecting).toBe(true);
    expect(sendEmail.concurrencySafe).toBe(false);
    const world = createWorld({ records: {} });
    expect(sendEmail.run(MAIL, world)).toEqual({ ok: true, to: 'grace@example.com', message_id: 'msg_0001' });
    sendEmail.run(MAIL, world);
    expect(world.outbox).toEqual([
      { key: 'grace@example.com', value: { subject: 'Ready', body: 'Your export is ready.' } },
      { key: 'grace@example.com', value: { subject: 'Ready', body: 'Your export is ready.' } },
    ]);
  });

  it('rejects a recipient that is not an address, and a missing subject, without sending', () => {
    const world = createWorld({ records: {} });
    expect(() => sendEmail.run({ ...MAIL, to: 'Grace Hopper' }, world)).toThrow(ToolError);
    expect(() => sendEmail.run({ ...MAIL, to: 'Grace Hopper' }, world)).toThrow(
      "'to' must be an email address, got 'Grace Hopper'",
    );
    expect(() => sendEmail.run({ to: MAIL.to, body: MAIL.body }, world)).toThrow(
      "'subject' must be a non-empty string",
    );
    expect(world.outbox).toEqual([]);
  });
});

describe('list_sent_emails', () => {
  it('says whether and how often a recipient was emailed, as a verify read', () => {
    expect(listSentEmails.sideEffecting).toBe(false);
    const world = createWorld({ records: {} });
    expect(listSentEmails.run({ to: MAIL.to }, world)).toEqual({ to: MAIL.to, found: false, count: 0 });
    sendEmail.run(MAIL, world);
    sendEmail.run({ ...MAIL, to: 'alan@example.com' }, world);
    sendEmail.run(MAIL, world);
    expect(listSentEmails.run({ to: MAIL.to }, world)).toEqual({ to: MAIL.to, found: true, count: 2 });
  });
});

describe('read_inbox', () => {
  it('answers the inbox messages, at most limit of them', () => {
    const world = createWorld({
      records: { inbox: { m_1: { id: 'm_1', from: 'a@example.com' }, m_2: { id: 'm_2', from: 'b@example.com' } } },
    });
    expect(readInbox.run({}, world)).toEqual({
      messages: [
        { id: 'm_1', from: 'a@example.com' },
        { id: 'm_2', from: 'b@example.com' },
      ],
    });
    expect(readInbox.run({ limit: 1 }, world)).toEqual({ messages: [{ id: 'm_1', from: 'a@example.com' }] });
    expect(readInbox.sideEffecting).toBe(false);
  });
});
