import { listSentEmails, readInbox, sendEmail } from './tools/email.js';
import { createRefund, getInventory, getOrder, listInventory, listOrders, listRefunds } from './tools/orders.js';
import { readResult, submitAnswer, writeResult } from './tools/outbox.js';
import { readSource, searchKnowledgeBase, searchSources } from './tools/research.js';
import type { ToolSpec } from '../tools/tool-spec.js';
import { getUser, searchUsers, transformRecord } from './tools/users.js';

export { transformUserRecord } from './tools/users.js';

/**
 * Every tool a scenario can offer, by name. Each family (users, outbox, email, orders,
 * research) lives in its own file under tools/.
 */
export const TOOL_CATALOGUE: ReadonlyMap<string, ToolSpec> = new Map(
  [
    getUser,
    searchUsers,
    transformRecord,
    writeResult,
    readResult,
    submitAnswer,
    sendEmail,
    listSentEmails,
    readInbox,
    getOrder,
    listOrders,
    getInventory,
    listInventory,
    createRefund,
    listRefunds,
    readSource,
    searchSources,
    searchKnowledgeBase,
  ].map((spec) => [spec.definition.name, spec]),
);
