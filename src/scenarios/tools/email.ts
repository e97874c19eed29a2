import { invalidInput } from '../../tools/tool-error.js';
import { collection, requireString } from './tool-input.js';
import type { ToolSpec } from '../../tools/tool-spec.js';

export const sendEmail: ToolSpec = {
  definition: {
    name: 'send_email',
    description:
      'Send an email from the support mailbox. The email leaves at once and cannot be recalled; each call sends one email.',
    input_schema: {
      type: 'object',
      properties: {
        to: { type: 'string', description: 'The recipient address.' },
        subject: { type: 'string', description: 'The subject line.' },
        body: { type: 'string', description: 'The plain-text body.' },
      },
      required: ['to', 'subject', 'body'],
    },
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 600,
  readBack: { tool: 'list_sent_emails', input: { to: 'to' }, count: 'count' },
  run(input, world) {
    const to = requireString(input, 'to');
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(to)) throw invalidInput(`'to' must be an email address, got '${to}'`);
    const subject = requireString(input, 'subject');
    const body = requireString(input, 'body');
    // The outbox is keyed by recipient: the same email twice to the same person is a duplicate.
    world.outbox.push({ key: to, value: { subject, body } });
    return { ok: true, to, message_id: `msg_${String(world.outbox.length).padStart(4, '0')}` };
  },
};

export const listSentEmails: ToolSpec = {
  definition: {
    name: 'list_sent_emails',
    description: 'Check the sent folder: whether any email has gone to a recipient, and how many.',
    input_schema: {
      type: 'object',
      properties: { to: { type: 'string', description: 'The recipient address.' } },
      required: ['to'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 200,
  run(input, world) {
    const to = requireString(input, 'to');
    const count = world.outbox.filter((entry) => entry.key === to).length;
    return { to, found: count > 0, count };
  },
};

export const readInbox: ToolSpec = {
  definition: {
    name: 'read_inbox',
    description:
      'Read the support inbox: the messages that arrived (id, from, subject, body, received_at), newest first.',
    input_schema: {
      type: 'object',
      properties: { limit: { type: 'number', description: 'At most this many messages (default 5).' } },
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 300,
  outputSchema: {
    type: 'object',
    required: ['messages'],
    properties: { messages: { type: 'array', items: { type: 'object', required: ['id', 'from', 'subject', 'body'] } } },
  },
  run(input, world) {
    const limit = typeof input['limit'] === 'number' && input['limit'] > 0 ? Math.floor(input['limit']) : 5;
    const messages = Object.values(collection(world, 'inbox')).slice(0, limit);
    return { messages };
  },
};
