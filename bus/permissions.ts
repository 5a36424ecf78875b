// Who may do what on the bus: each hall host and each console has its own NATS user, limited to its
// own subjects (docs/hall.md, "Credentials"). A host can write only its own journal subject and answer
// only its own commands; it cannot make or delete the stream, read another host's commands, write as
// the console, read another role's replies (each role has its own inbox prefix) or make a consumer of
// anything but the opening and the desk. No role may delete or purge the stream. The same lists make
// the servers' configuration (`zeitnot bus users`) and the tests'.
import { snapshotStream, snapshotSubjects } from './snapshots.ts';
import type { EventSubjects } from './subjects.ts';

export type BusRole = { readonly kind: 'host'; readonly id: string } | { readonly kind: 'console'; readonly id: string };

export interface Permissions {
  readonly publish: readonly string[];
  readonly subscribe: readonly string[];
  /** May answer the requests it receives (a host's command replies), and no other inbox. */
  readonly allowResponses: boolean;
}

/** The durable consumer of a reader (reader.ts): one per role. */
export function consumerName(role: BusRole): string {
  return `${role.kind}-${role.id}`;
}

/**
 * A hall host's second consumer, read once when the chief hands it a silent host's boards: the earlier
 * holder's entries, to go on with its games (board-leases.ts).
 */
export function handoverConsumerName(role: BusRole): string {
  return `${consumerName(role)}-handover`;
}

/**
 * Where a role's replies come (its requests' and JetStream's): a prefix of its own, so that no role can
 * subscribe to the replies another receives. Each role connects with it (connect.ts, `inboxPrefix`).
 */
export function inboxPrefix(role: BusRole): string {
  return `_INBOX_${consumerName(role)}`;
}

/**
 * Its consumer's API. A consumer is made with its filter in the API subject (the server reads it from
 * there), so a host, allowed only the filter of what hosts read, cannot make one that reads other
 * hosts' entries. A console reads the whole event through an ordered consumer (reader.ts) whose name
 * the client numbers (`console-c1_1`, `_2`, ... as it makes it again): a subject permission cannot
 * name a prefix within a token, so a console may work any consumer of the event's stream (it reads
 * every entry anyway; hosts keep their one durable consumer each).
 */
function readerApi(subjects: EventSubjects, role: BusRole): string[] {
  const s = subjects.stream;
  const c = consumerName(role);
  if (role.kind === 'console') {
    // Its snapshots (snapshots.ts): it writes its own, reads every console's.
    const snap = snapshotStream(subjects);
    return [
      `$JS.API.STREAM.INFO.${s}`,
      `$JS.API.STREAM.CREATE.${snap}`,
      `$JS.API.STREAM.INFO.${snap}`,
      `$JS.API.STREAM.MSG.GET.${snap}`,
      snapshotSubjects(subjects, role.id),
      `$JS.API.STREAM.MSG.GET.${s}`,
      `$JS.API.CONSUMER.INFO.${s}.*`,
      `$JS.API.CONSUMER.DELETE.${s}.*`,
      `$JS.API.CONSUMER.CREATE.${s}.*`,
      `$JS.API.CONSUMER.CREATE.${s}.*.>`,
      `$JS.API.CONSUMER.MSG.NEXT.${s}.*`,
    ];
  }
  return [
    `$JS.API.STREAM.INFO.${s}`,
    `$JS.API.STREAM.MSG.GET.${s}`,
    `$JS.API.CONSUMER.INFO.${s}.${c}`,
    `$JS.API.CONSUMER.DELETE.${s}.${c}`,
    `$JS.API.CONSUMER.CREATE.${s}.${c}.${subjects.forHosts}`,
    `$JS.API.CONSUMER.MSG.NEXT.${s}.${c}`,
    `$JS.ACK.${s}.${c}.>`,
  ];
}

/**
 * The lease operations (docs/hall.md, "Who owns a board"): a board's lease in the event's stream (any
 * board's: a host's boards are its command line's), the host's own renewal key in the lease bucket,
 * and reading the bucket's keys. A console writes the leases it hands over and makes the bucket.
 */
function leaseApi(subjects: EventSubjects, role: BusRole): string[] {
  const b = subjects.leaseBucket;
  const keys = [subjects.anyLease, `$JS.API.STREAM.MSG.GET.${b}`];
  return role.kind === 'host' ? [...keys, subjects.alive(role.id)] : [...keys, subjects.anyAlive, `$JS.API.STREAM.INFO.${b}`, `$JS.API.STREAM.CREATE.${b}`];
}

/** The handover consumer: only hall hosts' journal subjects as its filter (a literal host subject each time). */
function handoverApi(subjects: EventSubjects, role: BusRole): string[] {
  const s = subjects.stream;
  const c = handoverConsumerName(role);
  return [
    `$JS.API.CONSUMER.CREATE.${s}.${c}.${subjects.anyHost}`,
    `$JS.API.CONSUMER.INFO.${s}.${c}`,
    `$JS.API.CONSUMER.DELETE.${s}.${c}`,
    `$JS.API.CONSUMER.MSG.NEXT.${s}.${c}`,
    `$JS.ACK.${s}.${c}.>`,
  ];
}

export function rolePermissions(subjects: EventSubjects, role: BusRole): Permissions {
  const inbox = `${inboxPrefix(role)}.>`;
  if (role.kind === 'host') {
    return {
      // The stream names: a host whose event is not on the bus says which events are (hall-host.ts).
      publish: [
        subjects.host(role.id),
        subjects.presence(role.id),
        '$JS.API.STREAM.NAMES',
        ...readerApi(subjects, role),
        ...leaseApi(subjects, role),
        ...handoverApi(subjects, role),
      ],
      subscribe: [subjects.command(role.id), inbox],
      allowResponses: true,
    };
  }
  return {
    publish: [
      subjects.opening,
      subjects.desk,
      subjects.anyCommand,
      `$JS.API.STREAM.CREATE.${subjects.stream}`,
      ...readerApi(subjects, role),
      ...leaseApi(subjects, role),
    ],
    subscribe: [subjects.anyPresence, inbox],
    allowResponses: false,
  };
}

export type BusUser = { readonly role: BusRole } & ({ readonly nkey: string } | { readonly user: string; readonly password: string });

const quote = (s: string): string => JSON.stringify(s);

/** The `authorization { users = [...] }` block of nats-server's configuration for these users. */
export function authorizationBlock(subjects: EventSubjects, users: readonly BusUser[]): string {
  const lines = users.map((u) => {
    const p = rolePermissions(subjects, u.role);
    const who = 'nkey' in u ? `nkey: ${quote(u.nkey)}` : `user: ${quote(u.user)}, password: ${quote(u.password)}`;
    const list = (xs: readonly string[]): string => `[\n${xs.map((x) => `          ${quote(x)}`).join('\n')}\n        ]`;
    return [
      `    # ${u.role.kind} ${u.role.id}`,
      `    { ${who}, permissions: {`,
      `        publish: { allow: ${list(p.publish)} }`,
      `        subscribe: { allow: ${list(p.subscribe)} }`,
      ...(p.allowResponses ? ['        allow_responses: true'] : []),
      '    } }',
    ].join('\n');
  });
  return `authorization {\n  users = [\n${lines.join('\n')}\n  ]\n}\n`;
}
