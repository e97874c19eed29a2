// Our own tool, as the scenario plays it (scenarios/profile-export.yaml names this module
// in `tools_module:`). The scenario's other tools come from spiralbench's catalogue.
import { defineTool, invalidInput, notFound } from 'spiralbench';

/**
 * Reads a customer from our CRM: async, as the real client is, and read-only, so a failed
 * call may be retried. The scenario's `faults:` make it time out and rate-limit on purpose.
 */
export const getCustomer = defineTool({
  name: 'get_customer',
  description: 'Fetch one customer record by id from the CRM. Returns the record as JSON.',
  input_schema: {
    type: 'object',
    properties: { customer_id: { type: 'string', description: 'The customer id, e.g. "c_2001".' } },
    required: ['customer_id'],
  },
  sideEffecting: false,
  concurrencySafe: true,
  latencyMs: 180,
  run: async (input, world) => {
    const id = input.customer_id;
    if (typeof id !== 'string' || id === '') throw invalidInput("'customer_id' must be a non-empty string");
    const customer = world.records.customers?.[id];
    if (customer === undefined) throw notFound(`no customer with id '${id}'`);
    return customer;
  },
});
