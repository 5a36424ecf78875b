// A WebSocket client for server tests: every message kept, from a chosen loopback address.
import WebSocket from 'ws';
import { until } from './wait.ts';

export type Message = { type: string; [k: string]: unknown };

export interface TestClient {
  readonly ws: WebSocket;
  readonly messages: Message[];
  /** Close code once closed. */
  closed: number | undefined;
  send(message: object): void;
  /** Waits for the first message (after `after` messages) that `match` accepts. */
  next(match: (m: Message) => boolean, what: string, after?: number): Promise<Message>;
}

export async function openClient(url: string, options: { localAddress?: string; origin?: string; host?: string } = {}): Promise<TestClient> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, {
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.host ? { headers: { host: options.host } } : {}),
  });
  const client: TestClient = {
    ws,
    messages: [],
    closed: undefined,
    send: (m) => ws.send(JSON.stringify(m)),
    async next(match, what, after = 0) {
      let found: Message | undefined;
      await until(() => (found = client.messages.slice(after).find(match)) !== undefined || client.closed !== undefined, what);
      if (!found) throw new Error(`closed (${client.closed}) before ${what}`);
      return found;
    },
  };
  ws.on('message', (d) => client.messages.push(JSON.parse(String(d)) as Message));
  ws.on('close', (code) => (client.closed = code));
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return client;
}

/** Opens a client and says hello; resolves once the snapshot (or a refusal) is in. */
export async function helloClient(url: string, hello: object, options: { localAddress?: string } = {}): Promise<TestClient> {
  const c = await openClient(url, options);
  c.send({ type: 'hello', ...hello });
  await c.next((m) => m.type === 'snapshot' || m.type === 'error', 'the snapshot');
  return c;
}

let commandIds = 0;
/** Sends an arbiter command; resolves with its answer (ack, refused, credentials). */
export async function sendCommand(c: TestClient, command: { readonly type: string }): Promise<Message> {
  const id = `c${++commandIds}`;
  const at = c.messages.length;
  c.send({ type: 'command', id, command });
  return c.next((m) => m.id === id, `the answer to ${command.type}`, at);
}
