// A role joining the bus asks the JetStream API a few questions (the stream, the opening, its
// consumer). On a cluster one of them can go unanswered for a while: a server just died or hangs and
// the stream's leader is being elected, a consumer's replicas are being placed on a loaded machine.
// Such a question is asked again until it is answered; a refusal (no permission, a bad request) is not.
import { errors } from '@nats-io/transport-node';
import { JetStreamApiError } from '@nats-io/jetstream';

/** JetStream's "temporarily unavailable" (no leader yet) and "cluster not available". */
const UNAVAILABLE = new Set([10008, 10005, 10074]);

/** Whether `error` says the bus did not answer (yet), rather than that it refused. */
export function isUnanswered(error: unknown): boolean {
  if (error instanceof errors.TimeoutError || error instanceof errors.NoRespondersError) return true;
  if (error instanceof errors.RequestError) return error.isNoResponders() || error.cause instanceof errors.TimeoutError;
  // No JetStream responder: the servers' JetStream has no meta leader at the moment.
  if (error instanceof Error && error.name === 'JetStreamNotEnabled') return true;
  return error instanceof JetStreamApiError && (UNAVAILABLE.has(error.code) || error.status === 503);
}

/**
 * `ask()` until the bus answers: an unanswered question is asked again after `pauseMs`, each time told
 * to `onRetry`; any other error is thrown. `signal` ends the wait (its reason thrown).
 */
export async function untilAnswered<T>(
  what: string,
  ask: () => Promise<T>,
  onRetry: (message: string) => void = () => {},
  pauseMs = 1_000,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ask();
    } catch (err) {
      if (!isUnanswered(err) || signal?.aborted) throw err;
      onRetry(`the bus did not answer ${what} (${err instanceof Error ? err.message : String(err)}, attempt ${attempt}): asking again`);
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
