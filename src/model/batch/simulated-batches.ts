/** The Message Batches routes, under the Messages API's base. */
const BATCHES = /\/v1\/messages\/batches(?:\/([A-Za-z0-9_-]+)(\/results)?)?$/;

/** One request of a batch and its result, as the results file holds it. */
interface BatchResult {
  readonly custom_id: string;
  readonly result:
    | { readonly type: 'succeeded'; readonly message: unknown }
    | { readonly type: 'errored'; readonly error: unknown };
}

interface Batch {
  readonly id: string;
  readonly results: readonly BatchResult[];
  /** Status reads left before it says it has ended. */
  polls: number;
}

export interface SimulatedBatchesOptions {
  /** Status reads the n-th batch (from 0) answers `in_progress` to before it ends (a real batch takes minutes to hours). @default none */
  readonly pollsUntilEnded?: (batch: number) => number;
  /** Sees every request a batch carries, by its custom_id, as the batch is created (tests count what was sent). */
  readonly onRequest?: (customId: string) => void;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function notFound(message: string): Response {
  return json(404, { type: 'error', error: { type: 'not_found_error', message } });
}

function invalid(message: string): Response {
  return json(400, { type: 'error', error: { type: 'invalid_request_error', message } });
}

/**
 * `messages` (a Messages endpoint's fetch) with the Message Batches API in front of it, for
 * tests and `serve-model`: `POST /v1/messages/batches` answers every request of the batch
 * at once, in order, through `messages` itself (so each meets the same model, faults and
 * cache a request of its own would); `GET /v1/messages/batches/<id>` reports it in progress
 * for `pollsUntilEnded` reads, then ended; `GET …/results` gives the results as JSONL. A
 * result's usage says `service_tier: 'batch'`, which prices it at half. The results URL is
 * a path under the client's base URL, which the SDK resolves against it.
 */
export function withSimulatedBatches(messages: typeof fetch, options: SimulatedBatchesOptions = {}): typeof fetch {
  const batches = new Map<string, Batch>();
  const status = (batch: Batch, ended: boolean) => ({
    id: batch.id,
    type: 'message_batch',
    processing_status: ended ? 'ended' : 'in_progress',
    request_counts: {
      processing: ended ? 0 : batch.results.length,
      succeeded: ended ? batch.results.filter((entry) => entry.result.type === 'succeeded').length : 0,
      errored: ended ? batch.results.filter((entry) => entry.result.type === 'errored').length : 0,
      canceled: 0,
      expired: 0,
    },
    created_at: '1970-01-01T00:00:00Z',
    ended_at: ended ? '1970-01-01T00:00:00Z' : null,
    expires_at: '1970-01-02T00:00:00Z',
    archived_at: null,
    cancel_initiated_at: null,
    results_url: ended ? `/v1/messages/batches/${batch.id}/results` : null,
  });
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const route = BATCHES.exec(new URL(url).pathname);
    if (route === null) return messages(input, init);
    const [, id, results] = route;
    const method = init?.method ?? 'GET';
    if (id === undefined) {
      if (method !== 'POST') return notFound(`the simulated endpoint serves POST /v1/messages/batches, not ${method}`);
      let body: { requests?: unknown };
      try {
        body = JSON.parse(String(init?.body)) as { requests?: unknown };
      } catch {
        return invalid('request body is not valid JSON');
      }
      const requests = body.requests;
      if (!Array.isArray(requests) || requests.length === 0)
        return invalid('requests: at least one request is required');
      const answered: BatchResult[] = [];
      for (const entry of requests as Array<{ custom_id?: unknown; params?: unknown }>) {
        if (typeof entry.custom_id !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(entry.custom_id))
          return invalid('requests.custom_id: 1 to 64 letters, digits, _ or -');
        options.onRequest?.(entry.custom_id);
        const reply = await messages(url.replace(/\/batches.*$/, ''), {
          method: 'POST',
          body: JSON.stringify(entry.params),
        });
        const answer = (await reply.json()) as { usage?: Record<string, unknown> };
        answered.push(
          reply.status === 200
            ? {
                custom_id: entry.custom_id,
                result: {
                  type: 'succeeded',
                  message: { ...answer, usage: { ...answer.usage, service_tier: 'batch' } },
                },
              }
            : { custom_id: entry.custom_id, result: { type: 'errored', error: answer } },
        );
      }
      const batch: Batch = {
        id: `msgbatch_sim_${batches.size + 1}`,
        results: answered,
        polls: options.pollsUntilEnded?.(batches.size) ?? 0,
      };
      batches.set(batch.id, batch);
      return json(200, status(batch, false));
    }
    const batch = batches.get(id);
    if (batch === undefined || method !== 'GET') return notFound(`no message batch ${id}`);
    if (results === undefined) {
      const ended = batch.polls <= 0;
      batch.polls -= 1;
      return json(200, status(batch, ended));
    }
    if (batch.polls >= 0) return invalid(`batch ${id} has not ended`);
    return new Response(batch.results.map((entry) => JSON.stringify(entry)).join('\n'), {
      status: 200,
      headers: { 'content-type': 'application/binary' },
    });
  };
}
