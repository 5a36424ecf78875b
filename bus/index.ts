// Public face of the bus: NATS JetStream between hall hosts and consoles (docs/hall.md). Nothing here
// knows clocks or boards: journal entries go out in order and come back exactly once. What other parts
// use; tests reach everything through internal.ts.
export { lastSeqOn, publishIfLast } from './claim.ts';
export { type BusConnection, connectBus, isPermissionViolation, permissionHint } from './connect.ts';
export { type BusOptions, BusUsageError, parseBusUrl } from './url.ts';
export { type BusEntry, decodeEntries, decodeEntry, encodeEntry, messageId } from './entry.ts';
export { ensureLeaseBucket, type KeyValue, type KeyWrite, readKey, writeKey } from './lease-bucket.ts';
export { type EncodedEntry, Outbox, type OutboxSource } from './outbox.ts';
export { authorizationBlock, type BusRole, type BusUser, consumerName, handoverConsumerName, inboxPrefix } from './permissions.ts';
export { announce, type HostSeen, PresenceWatch } from './presence.ts';
export { startReader, type StreamReader } from './reader.ts';
export { type BlobRef, digest, SnapshotStore, snapshotStream } from './snapshots.ts';
export { answer, ask } from './requests.ts';
export { untilAnswered } from './retry.ts';
export { awaitEventStream, ensureEventStream, otherEvents } from './stream.ts';
export { checkToken, eventSubjects, type EventSubjects } from './subjects.ts';
