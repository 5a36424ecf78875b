// A port for a process the test starts later (nats-server's client, route and monitor ports; a
// console's --port). It is picked below the kernel's ephemeral range: a port from that range, once
// released, can be taken by any outgoing connection as its source port before the server binds it
// (CI saw a cluster node die with "bind: address already in use" on a route port another node's
// route connection had just taken).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(low);
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A loopback port nobody listens on now and no outgoing connection can take meanwhile. */
export async function freePort(): Promise<number> {
  const span = ephemeralStart() - LOWEST;
  for (let tries = 0; tries < 100; tries += 1) {
    const port = LOWEST + Math.floor(Math.random() * span);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${LOWEST + span} after 100 tries`);
}
