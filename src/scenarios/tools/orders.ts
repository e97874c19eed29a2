import { invalidInput, notFound } from '../../tools/tool-error.js';
import type { Json } from '../../tools/world.js';
import { collection, isRecord, requireString } from './tool-input.js';
import type { ToolSpec } from '../../tools/tool-spec.js';

function optionalString(input: Record<string, unknown>, field: string): string | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidInput(`'${field}' must be a string when given`);
  return value;
}

export const getOrder: ToolSpec = {
  definition: {
    name: 'get_order',
    description: 'Fetch one order by id from the order service: status, customer, items, total.',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', description: 'The order id, e.g. "o_5521".' } },
      required: ['order_id'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 350,
  outputSchema: {
    type: 'object',
    required: ['id', 'customer', 'status', 'total'],
    properties: {
      id: { type: 'string' },
      customer: { type: 'string' },
      status: { type: 'string' },
      total: { type: 'number' },
    },
  },
  run(input, world) {
    const id = requireString(input, 'order_id');
    const order = collection(world, 'orders')[id];
    if (order === undefined) throw notFound(`no order with id '${id}'`);
    return order;
  },
};

export const listOrders: ToolSpec = {
  definition: {
    name: 'list_orders',
    description: "List a customer's orders (id, status, total), optionally only those with one status.",
    input_schema: {
      type: 'object',
      properties: {
        customer_id: { type: 'string', description: 'The customer id, e.g. "c_77".' },
        status: { type: 'string', description: 'Optional: only orders with this status.' },
      },
      required: ['customer_id'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 400,
  outputSchema: {
    type: 'object',
    required: ['customer_id', 'orders'],
    properties: {
      customer_id: { type: 'string' },
      orders: { type: 'array', items: { type: 'object', required: ['id', 'status', 'total'] } },
    },
  },
  run(input, world) {
    const customer = requireString(input, 'customer_id');
    const status = optionalString(input, 'status');
    const orders: Json[] = [];
    for (const [id, order] of Object.entries(collection(world, 'orders'))) {
      if (!isRecord(order) || order['customer'] !== customer) continue;
      if (status !== undefined && order['status'] !== status) continue;
      orders.push({ id, status: order['status'] ?? null, total: order['total'] ?? null });
    }
    return { customer_id: customer, orders };
  },
};

export const getInventory: ToolSpec = {
  definition: {
    name: 'get_inventory',
    description: 'Fetch the stock level of one product (SKU) in the warehouse: units available and reserved.',
    input_schema: {
      type: 'object',
      properties: { sku: { type: 'string', description: 'The product SKU, e.g. "SKU-7731".' } },
      required: ['sku'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 250,
  outputSchema: {
    type: 'object',
    required: ['sku', 'available'],
    properties: { sku: { type: 'string' }, available: { type: 'integer' } },
  },
  run(input, world) {
    const sku = requireString(input, 'sku');
    const stock = collection(world, 'inventory')[sku];
    if (stock === undefined) throw notFound(`no product with SKU '${sku}'`);
    return stock;
  },
};

export const listInventory: ToolSpec = {
  definition: {
    name: 'list_inventory',
    description:
      'List the products (SKU and name) a warehouse stocks, optionally only those whose name contains a word. Stock levels come from get_inventory.',
    input_schema: {
      type: 'object',
      properties: {
        warehouse: { type: 'string', description: 'The warehouse code, e.g. "LYON-1".' },
        name_contains: { type: 'string', description: 'Optional: a word the product name must contain.' },
      },
      required: ['warehouse'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 450,
  run(input, world) {
    const warehouse = requireString(input, 'warehouse');
    const word = optionalString(input, 'name_contains')?.toLowerCase();
    const products: Json[] = [];
    for (const [sku, stock] of Object.entries(collection(world, 'inventory'))) {
      if (!isRecord(stock) || stock['warehouse'] !== warehouse) continue;
      if (word !== undefined && !String(stock['name']).toLowerCase().includes(word)) continue;
      products.push({ sku, name: stock['name'] ?? null });
    }
    return { warehouse, products };
  },
};

export const createRefund: ToolSpec = {
  definition: {
    name: 'create_refund',
    description:
      "Refund an amount of an order to the customer's original payment method. The money moves at once; each call creates one refund.",
    input_schema: {
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'The order to refund.' },
        amount: { type: 'number', description: 'The amount, in the currency of the order; at most the order total.' },
      },
      required: ['order_id', 'amount'],
    },
  },
  sideEffecting: true,
  concurrencySafe: false,
  latencyMs: 800,
  readBack: { tool: 'list_refunds', input: { order_id: 'order_id' }, count: 'count' },
  run(input, world) {
    const id = requireString(input, 'order_id');
    const order = collection(world, 'orders')[id];
    if (!isRecord(order)) throw notFound(`no order with id '${id}'`);
    const amount = input['amount'];
    const total = typeof order['total'] === 'number' ? order['total'] : 0;
    if (typeof amount !== 'number' || !(amount > 0) || amount > total)
      throw invalidInput(`'amount' must be a number above 0 and at most the order total (${total})`);
    world.outbox.push({ key: id, value: { refund: amount, currency: order['currency'] ?? null } });
    return { ok: true, order_id: id, refund_id: `rf_${String(world.outbox.length).padStart(4, '0')}`, amount };
  },
};

export const listRefunds: ToolSpec = {
  definition: {
    name: 'list_refunds',
    description: 'List the refunds already made for an order, to check whether one went through.',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', description: 'The order id.' } },
      required: ['order_id'],
    },
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 200,
  run(input, world) {
    const id = requireString(input, 'order_id');
    const refunds = world.outbox.filter((entry) => entry.key === id).map((entry) => entry.value);
    return { order_id: id, found: refunds.length > 0, count: refunds.length, refunds };
  },
};
