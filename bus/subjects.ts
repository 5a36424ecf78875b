// The names one event uses on the bus (docs/hall.md, "Subjects"). Everything of an event lives under
// `zeitnot.<event>.`: the stream keeps only `journal.*` subjects; commands and presence are plain NATS
// messages that are never stored.
//
//   zeitnot.<event>.journal.event        the event's opening: its file, epoch and time scale (first one wins)
//   zeitnot.<event>.journal.desk         the console's records: seats, round starts, results, team
//   zeitnot.<event>.journal.host.<id>    a hall host's records: its boards' clock events and notes
//   zeitnot.<event>.command.<id>         arbiter commands for hall host <id> (request/reply)
//   zeitnot.<event>.presence.<id>        hall host <id>'s heartbeat (its boards, how far it has published)
//   zeitnot.<event>.journal.lease.<board> who owns a board: its lease's changes of holder (stored in the event)
//   zeitnot.<event>.alive.<id>           hall host <id>'s lease renewal (the lease bucket, its last one only)

/** An event id, a host id or a console id as one NATS subject token. */
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export function checkToken(what: string, text: string): string {
  if (!TOKEN.test(text)) throw new Error(`${what} '${text}': use 1 to 64 letters, digits, '-' or '_' (it is part of a NATS subject)`);
  return text;
}

/** An event's id as a subject token: the event file's id with anything else folded to '_'. */
export function eventToken(eventId: string): string {
  const folded = eventId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return checkToken('event id', folded || '_');
}

export interface EventSubjects {
  readonly event: string;
  /** The JetStream stream holding the event's journal. */
  readonly stream: string;
  readonly journal: string;
  readonly opening: string;
  readonly desk: string;
  /**
   * What a hall host reads: the desk (the opening it reads by itself, as every role does). A literal
   * subject: its permission (permissions.ts) then admits no other filter, where a wildcard in it would
   * admit `journal.>` (a permission's `*` matches a filter's `>` token).
   */
  readonly forHosts: string;
  host(id: string): string;
  command(id: string): string;
  presence(id: string): string;
  readonly anyPresence: string;
  readonly anyCommand: string;
  /** A board's lease: who holds it, written only by create or by naming its last revision (board-leases.ts). */
  lease(board: string): string;
  readonly anyLease: string;
  /** Every hall host's journal subject (a permission's pattern; a filter is always one host's). */
  readonly anyHost: string;
  /** The lease bucket (a stream holding each subject's last message only): the hosts' renewals. */
  readonly leaseBucket: string;
  alive(id: string): string;
  readonly anyAlive: string;
}

export function eventSubjects(eventId: string): EventSubjects {
  const token = eventToken(eventId);
  const root = `zeitnot.${token}`;
  return {
    event: token,
    stream: `ZEITNOT_${token}`, // stream.ts reads the prefix back (otherEvents)
    journal: `${root}.journal.>`,
    opening: `${root}.journal.event`,
    desk: `${root}.journal.desk`,
    forHosts: `${root}.journal.desk`,
    host: (id) => `${root}.journal.host.${checkToken('host id', id)}`,
    command: (id) => `${root}.command.${checkToken('host id', id)}`,
    presence: (id) => `${root}.presence.${checkToken('host id', id)}`,
    anyPresence: `${root}.presence.*`,
    anyCommand: `${root}.command.*`,
    lease: (board) => `${root}.journal.lease.${checkToken('board', board)}`,
    anyLease: `${root}.journal.lease.*`,
    anyHost: `${root}.journal.host.*`,
    // Not ZEITNOT_<...>: otherEvents reads every ZEITNOT_ stream as an event.
    leaseBucket: `LEASES_${token}`,
    alive: (id) => `${root}.alive.${checkToken('host id', id)}`,
    anyAlive: `${root}.alive.*`,
  };
}
