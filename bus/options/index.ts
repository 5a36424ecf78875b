// What a command needs of the bus to check its options (--bus, a host id): parsed and checked without
// loading the NATS client, which only a process that joins the bus loads (docs/console.md#restart).
export { checkToken } from '../subjects.ts';
export { type BusOptions, BusUsageError, parseBusUrl } from '../url.ts';
