import { type Json, ToolError, type ToolExecution, type ToolHost } from 'spiralbench';

/** Our service, as our agent sees it: customers to read, profiles to save. */
export interface ProfileStore {
  readonly customers: Record<string, { readonly name: string; readonly email: string }>;
  readonly saved: { readonly id: string; readonly profile: Json }[];
  /** Calls of get_customer that time out before one gets through (a flaky network). */
  timeoutsLeft: number;
}

const ok = (value: Json, latencyMs: number): ToolExecution => ({
  kind: 'ok',
  content: JSON.stringify(value),
  latencyMs,
  fault: null,
});
const failed = (error: ToolError, latencyMs: number): ToolExecution => ({
  kind: 'error',
  error,
  latencyMs,
  fault: null,
});

/**
 * Our two tools, as a ToolHost for spiralbench's loop: a read that may time out, and a
 * write that must happen once. Failures are returned as values, never thrown.
 */
export function profileTools(store: ProfileStore): ToolHost {
  return {
    definitions: [
      {
        name: 'get_customer',
        description: 'Fetch a customer by id.',
        input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      },
      {
        name: 'save_profile',
        description: 'Save the export profile of a customer.',
        input_schema: {
          type: 'object',
          properties: { id: { type: 'string' }, profile: { type: 'object' } },
          required: ['id', 'profile'],
        },
      },
    ],
    traits: (name) =>
      name === 'get_customer'
        ? { sideEffecting: false, concurrencySafe: true }
        : name === 'save_profile'
          ? { sideEffecting: true, concurrencySafe: false }
          : undefined,
    execute: (name, input) => {
      const id = String(input['id']);
      if (name === 'get_customer') {
        if (store.timeoutsLeft > 0) {
          store.timeoutsLeft -= 1;
          return failed(new ToolError('timeout', 'customer service timed out'), 10_000);
        }
        const customer = store.customers[id];
        if (customer === undefined) return failed(new ToolError('not_found', `no customer ${id}`, { status: 404 }), 30);
        return ok({ id, ...customer }, 40);
      }
      store.saved.push({ id, profile: input['profile'] as Json });
      return ok({ saved: id }, 60);
    },
  };
}
