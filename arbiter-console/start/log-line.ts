// What a running console or hall host says on its standard streams while it runs. Each line starts with
// the wall-clock time (UTC, ISO 8601) so an arbiter can put it beside the journal and the hall's events;
// the lines a start prints once (addresses, token) and a failed start's one line carry none.

/** Writes `<ISO time> <source>: <message>` as one line (newlines inside the message folded). */
export function logLine(stream: NodeJS.WritableStream, source: string, message: string, now: () => Date = () => new Date()): void {
  stream.write(`${now().toISOString()} ${source}: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
}
