// `zeitnot bus users`: the NATS users of an event's hall (docs/hall.md, "Credentials"): an nkey per
// hall host and console, each limited to its own subjects, and the servers' authorization block.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nkeys } from '@nats-io/transport-node';
import { authorizationBlock, checkToken, eventSubjects, type BusRole, type BusUser } from '../bus/index.ts';
import { eventFrom } from './inputs.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

const help = `zeitnot bus users: NATS credentials for an event's hall hosts and consoles.

usage: zeitnot bus users --event FILE|PRESET --host ID [--host ID ...] --console ID [--console ID ...] --out DIR

  --event FILE|PRESET  the event (its id names the subjects and the stream)
  --host ID            a hall host (its --host-id); give one per host
  --console ID         a console (its --console-id); give one per console
  --out DIR            where to write: one nkey seed file per role (ROLE-ID.nk, readable by its owner
                       only: copy each to its machine and give it as --bus-nkey) and nats-users.conf,
                       the authorization block to include in every server's configuration

A seed file that exists already is kept (its user stays the same); only new ones are made. The servers
hold only public keys: a copied configuration signs no one in.`;

export const command: Command = {
  name: 'bus',
  help,
  async run(args) {
    const [action, ...rest] = args;
    if (action !== 'users') throw new UsageError('expected `bus users --event ... --host ID --console ID --out DIR`');
    const { values } = parseOptions(rest, {
      event: { type: 'string' },
      host: { type: 'string', multiple: true },
      console: { type: 'string', multiple: true },
      out: { type: 'string' },
    });
    if (!values.event) throw new UsageError('bus users: give --event FILE|PRESET');
    if (!values.out) throw new UsageError('bus users: give --out DIR');
    const roles: BusRole[] = [
      ...(values.host ?? []).map((id) => ({ kind: 'host' as const, id: token('--host', id) })),
      ...(values.console ?? []).map((id) => ({ kind: 'console' as const, id: token('--console', id) })),
    ];
    if (!roles.some((r) => r.kind === 'console')) throw new UsageError('bus users: give at least one --console ID');
    const subjects = eventSubjects(eventFrom(values.event).id);
    mkdirSync(values.out, { recursive: true });
    const users: BusUser[] = roles.map((role) => ({ role, nkey: seedFile(join(values.out!, `${role.kind}-${role.id}.nk`)) }));
    const conf = join(values.out, 'nats-users.conf');
    writeFileSync(conf, `# zeitnot bus users for event '${subjects.event}' (stream ${subjects.stream})\n${authorizationBlock(subjects, users)}`);
    process.stdout.write(`${conf}: ${users.length} users for stream ${subjects.stream}; include it in every server's configuration\n`);
    for (const u of users) process.stdout.write(`  ${u.role.kind} ${u.role.id}: --bus-nkey ${join(values.out, `${u.role.kind}-${u.role.id}.nk`)}\n`);
    return 0;
  },
};

function token(option: string, id: string): string {
  try {
    return checkToken(option, id);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The public key of the seed in `file`, making the seed first if there is none. */
function seedFile(file: string): string {
  if (!existsSync(file)) {
    writeFileSync(file, new TextDecoder().decode(nkeys.createUser().getSeed()) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  const seed = new TextEncoder().encode((readSeed(file) ?? '').trim());
  try {
    return nkeys.fromSeed(seed).getPublicKey();
  } catch {
    throw new UsageError(`${file} is not an nkey seed`, 3);
  }
}

function readSeed(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
