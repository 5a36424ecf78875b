// Who may do what on the bus: each hall host and each console has its own NATS user, limited to its
// own subjects (docs/hall.md, "Credentials"). A host can write only its own journal subject and answer
// only its own commands; it cannot make or delete the stream, read another host's commands or write
// as the console. The same lists make the servers' configuration (`zeitnot bus users`) and the tests'.
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

function readerApi(subjects: EventSubjects, role: BusRole): string[] {
  const s = subjects.stream;
  const c = consumerName(role);
  return [
    `$JS.API.STREAM.INFO.${s}`,
    `$JS.API.STREAM.MSG.GET.${s}`,
    `$JS.API.CONSUMER.INFO.${s}.${c}`,
    `$JS.API.CONSUMER.DELETE.${s}.${c}`,
    `$JS.API.CONSUMER.CREATE.${s}.${c}`,
    `$JS.API.CONSUMER.CREATE.${s}.${c}.>`,
    `$JS.API.CONSUMER.DURABLE.CREATE.${s}.${c}`,
    `$JS.API.CONSUMER.MSG.NEXT.${s}.${c}`,
    `$JS.ACK.${s}.${c}.>`,
  ];
}

export function rolePermissions(subjects: EventSubjects, role: BusRole): Permissions {
  if (role.kind === 'host') {
    return {
      publish: [subjects.host(role.id), subjects.presence(role.id), ...readerApi(subjects, role)],
      subscribe: [subjects.command(role.id), '_INBOX.>'],
      allowResponses: true,
    };
  }
  return {
    publish: [subjects.opening, subjects.desk, subjects.anyCommand, `$JS.API.STREAM.CREATE.${subjects.stream}`, ...readerApi(subjects, role)],
    subscribe: [subjects.anyPresence, '_INBOX.>'],
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
