// Everything bus/ exports, for the tests (as nats.js's internal_mod.ts): index.ts is the part's public
// face, what other parts use. Nothing outside tests/ imports this.
export { connectBus, permissionHint, isPermissionViolation, BusRefusedError, type BusConnection } from './connect.ts';
export { parseBusUrl, BusUsageError, type BusOptions, type BusTls } from './url.ts';
export { eventSubjects, eventToken, checkToken, type EventSubjects } from './subjects.ts';
export { encodeEntry, encodeEntries, decodeEntry, decodeEntries, messageId, type BusEntry, type Decoded, type DecodedMessage } from './entry.ts';
export { ensureEventStream, awaitEventStream, otherEvents, DUPLICATE_WINDOW_MS, type StreamPlan } from './stream.ts';
export { Outbox, type OutboxSource, type OutboxOptions, type OutboxState } from './outbox.ts';
export { startReader, SourceOrder, type ReaderOptions, type StreamReader, type ParseRecord, type StreamPlace, type ReaderStats } from './reader.ts';
export { ask, answer, type Reply } from './requests.ts';
export { announce, PresenceWatch, type HostPresence, type HostSeen } from './presence.ts';
export { ensureLeaseBucket, readKey, writeKey, type KeyValue, type KeyWrite } from './lease-bucket.ts';
export {
  rolePermissions,
  authorizationBlock,
  consumerName,
  handoverConsumerName,
  inboxPrefix,
  type BusRole,
  type BusUser,
  type Permissions,
} from './permissions.ts';
export { untilAnswered, isUnanswered } from './retry.ts';
export { publishIfLast, lastSeqOn, type Claim } from './claim.ts';
export { SnapshotStore, snapshotStream, snapshotSubjects, digest, type BlobRef } from './snapshots.ts';
