// A port for a process the test starts later (nats-server's client, route and monitor ports; a
// console's --port). It is picked below the kernel's ephemeral range: a port from that range, once
// released, can be taken by any outgoing connection as its source port before the server binds it
// (CI saw a cluster node die with "bind: address already in use" on a route port another node's
// route connection had just taken). Each vitest worker picks from its own slice of that range and a
// process never hands out one port twice: a port is free when picked but bound only later, so two
// workers (or two picks of one cluster) could otherwise both take it (CI, 6 Dec: a cluster node found
// its route port held by another worker's server, whose reply the other nodes' routes could not parse).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 10_000;
const SLICES = 8;

function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const start = Number(low);
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

/** This worker's ports: [first, first + size). Outside vitest (the benches), the whole range. */
function sliceOfThisWorker(): { first: number; size: number } {
  const span = ephemeralStart() - LOWEST;
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return { first: LOWEST, size: span };
  const size = Math.floor(span / SLICES);
  return { first: LOWEST + ((pool - 1) % SLICES) * size, size };
}

// A process is one worker for its whole life (vitest keeps a runner's pool id): read once.
let slice: { first: number; size: number } | undefined;
const handedOut = new Set<number>();

const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A loopback port nobody listens on now, no outgoing connection or other worker can take meanwhile. */
export async function freePort(): Promise<number> {
  const { first, size } = (slice ??= sliceOfThisWorker());
  for (let tries = 0; tries < 100; tries += 1) {
    const port = first + Math.floor(Math.random() * size);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${first} and ${first + size} after 100 tries`);
}

/**
 * Whether something listens on this loopback port, read from the kernel's table (/proc/net/tcp) rather
 * than by binding it: a probe that binds holds the port for a moment, and a process starting to listen
 * then fails (`socat` gave up so, and a test waited 10 s for a relay that was never there).
 */
export function isListening(port: number): boolean {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  // Each line: sl, local_address, rem_address, st (0A is LISTEN), ...
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .some((line) => {
      const [, address, , state] = line.trim().split(/\s+/);
      return address === local && state === '0A';
    });
}
