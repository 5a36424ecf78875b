// Request/reply between the roles (never stored in the stream): the console asks the hall host that
// owns a board to carry out an arbiter command; the host answers once it has journaled it. JSON both
// ways; a failure on the way is an answer too ("host unreachable"), never an exception for the caller.
import { errors, type NatsConnection, type Subscription } from '@nats-io/transport-node';

/**
 * `unreachable`: no answer came (none is coming, or not in time); `noResponders`: the server had no
 * subscriber for the subject and delivered the request to no one (NATS's 503), so it was not received.
 */
export type Reply<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string; readonly unreachable?: boolean; readonly noResponders?: boolean };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Sends `body` to whoever answers on `subject` and waits up to `timeoutMs` for the answer. */
export async function ask<T>(nc: NatsConnection, subject: string, body: unknown, timeoutMs: number): Promise<Reply<T>> {
  let answer;
  try {
    answer = await nc.request(subject, encoder.encode(JSON.stringify(body)), { timeout: timeoutMs });
  } catch (err) {
    if (err instanceof errors.NoRespondersError || (err instanceof errors.RequestError && err.isNoResponders()))
      return { ok: false, reason: 'no one answers there', unreachable: true, noResponders: true };
    if (err instanceof errors.TimeoutError) return { ok: false, reason: `no answer within ${timeoutMs} ms`, unreachable: true };
    return { ok: false, reason: err instanceof Error ? err.message : String(err), unreachable: true };
  }
  try {
    return { ok: true, value: JSON.parse(decoder.decode(answer.data)) as T };
  } catch {
    return { ok: false, reason: 'the answer is not JSON' };
  }
}

/**
 * Answers every request on `subject` with what `handle` returns (awaited). A request that is not JSON
 * gets `{ error }`; `handle` throwing gets `{ error }` too, and the subscription goes on.
 */
export function answer(nc: NatsConnection, subject: string, handle: (body: unknown) => unknown): Subscription {
  const sub = nc.subscribe(subject);
  void (async () => {
    for await (const m of sub) {
      let body: unknown;
      try {
        body = JSON.parse(decoder.decode(m.data));
      } catch {
        m.respond(encoder.encode(JSON.stringify({ error: 'the request is not JSON' })));
        continue;
      }
      try {
        const result = await handle(body);
        m.respond(encoder.encode(JSON.stringify(result)));
      } catch (err) {
        m.respond(encoder.encode(JSON.stringify({ error: err instanceof Error ? err.message : String(err) })));
      }
    }
  })();
  return sub;
}
