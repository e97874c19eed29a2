import { describe, expect, it } from 'vitest';
import { createWorld, type World } from '../../tools/world.js';
import { createRefund, getInventory, getOrder, listInventory, listOrders, listRefunds } from './orders.js';

const world = (): World =>
  createWorld({
    records: {
      orders: {
        o_1: { id: 'o_1', customer: 'c_1', status: 'shipped', total: 40, currency: 'EUR' },
        o_2: { id: 'o_2', customer: 'c_1', status: 'paid', total: 15.5, currency: 'EUR' },
        o_3: { id: 'o_3', customer: 'c_2', status: 'paid', total: 9, currency: 'GBP' },
      },
      inventory: {
        'SKU-1': { sku: 'SKU-1', name: 'Ceramic mug', warehouse: 'W1', available: 5 },
        'SKU-2': { sku: 'SKU-2', name: 'Tea towel', warehouse: 'W1', available: 0 },
        'SKU-3': { sku: 'SKU-3', name: 'Travel mug', warehouse: 'W2', available: 7 },
      },
    },
  });

describe('order reads', () => {
  it('get_order returns the record and a 404 for an unknown id', () => {
    expect(getOrder.run({ order_id: 'o_2' }, world())).toMatchObject({ status: 'paid', total: 15.5 });
    expect(() => getOrder.run({ order_id: 'o_9' }, world())).toThrow("no order with id 'o_9'");
  });

  it("list_orders lists a customer's orders, optionally by status", () => {
    expect(listOrders.run({ customer_id: 'c_1' }, world())).toEqual({
      customer_id: 'c_1',
      orders: [
        { id: 'o_1', status: 'shipped', total: 40 },
        { id: 'o_2', status: 'paid', total: 15.5 },
      ],
    });
    expect(listOrders.run({ customer_id: 'c_1', status: 'paid' }, world())).toEqual({
      customer_id: 'c_1',
      orders: [{ id: 'o_2', status: 'paid', total: 15.5 }],
    });
    expect(() => listOrders.run({ customer_id: 'c_1', status: 3 }, world())).toThrow(
      "'status' must be a string when given",
    );
  });

  it('get_inventory and list_inventory read the stock by SKU and by warehouse', () => {
    expect(getInventory.run({ sku: 'SKU-3' }, world())).toMatchObject({ available: 7 });
    expect(() => getInventory.run({ sku: 'SKU-9' }, world())).toThrow("no product with SKU 'SKU-9'");
    expect(listInventory.run({ warehouse: 'W1', name_contains: 'MUG' }, world())).toEqual({
      warehouse: 'W1',
      products: [{ sku: 'SKU-1', name: 'Ceramic mug' }],
    });
    expect(listInventory.run({ warehouse: 'W1' }, world())).toMatchObject({
      products: [{ sku: 'SKU-1' }, { sku: 'SKU-2' }],
    });
  });
});

describe('create_refund and list_refunds', () => {
  it('moves money once per call, keyed by order, and the verify read sees it', () => {
    expect(createRefund.sideEffecting).toBe(true);
    expect(listRefunds.sideEffecting).toBe(false);
    const w = world();
    expect(listRefunds.run({ order_id: 'o_1' }, w)).toEqual({ order_id: 'o_1', found: false, count: 0, refunds: [] });
    expect(createRefund.run({ order_id: 'o_1', amount: 40 }, w)).toEqual({
      ok: true,
      order_id: 'o_1',
      refund_id: 'rf_0001',
      amount: 40,
    });
    expect(w.outbox).toEqual([{ key: 'o_1', value: { refund: 40, currency: 'EUR' } }]);
    expect(listRefunds.run({ order_id: 'o_1' }, w)).toEqual({
      order_id: 'o_1',
      found: true,
      count: 1,
      refunds: [{ refund: 40, currency: 'EUR' }],
    });
  });

  it('refuses an amount above the order total or not a number, and an unknown order, without side effect', () => {
    const w = world();
    expect(() => createRefund.run({ order_id: 'o_1', amount: 40.01 }, w)).toThrow(
      "'amount' must be a number above 0 and at most the order total (40)",
    );
    expect(() => createRefund.run({ order_id: 'o_1', amount: 'unknown' }, w)).toThrow(/'amount' must be a number/);
    expect(() => createRefund.run({ order_id: 'o_9', amount: 1 }, w)).toThrow("no order with id 'o_9'");
    expect(w.outbox).toEqual([]);
  });
});
