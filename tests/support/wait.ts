// Waiting in tests for what real I/O brings (pseudo-terminals, sockets, child processes, a bus) while
// the time under test is otherwise simulated: one helper for a condition, one for an answer read again.

/** Resolves once `condition` holds, asked every `everyMs`; throws naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 20_000, everyMs = 2): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Reads again every `everyMs` until `done` accepts the value, and returns it; throws naming `what` and
 * the last value read after `timeoutMs`. A read that fails counts as not yet (a server away, a port
 * not up yet) and is read again.
 */
export async function untilRead<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000, everyMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: string = 'nothing read yet';
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = JSON.stringify(value)?.slice(0, 400) ?? String(value);
    } catch (err) {
      last = `a failed read: ${String(err)}`;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
