// The arbiters' credentials. The chief arbiter's token is generated on the first start and shown once;
// with it the chief issues, lists and revokes named tokens for deputies and sector arbiters. Every
// token is stored only as an scrypt hash: the chief's in DIR/arbiter-token.scrypt (as before), the
// named ones in DIR/arbiters.json. A named token is `<id>.<secret>`, so checking it costs one scrypt.
//
// Beside each hash is a fingerprint (`check`): 8 bytes of an HMAC of the secret keyed by the hash's
// salt. It lets the login gate turn a wrong token away in microseconds, before any scrypt, so a flood of
// guesses from any number of addresses never stands in front of a real token's check (login-gate.ts).
// It gives nothing away: the secrets are 144 random bits, so a fingerprint that matches 2^80 of them
// names none, and a match is still proved by scrypt. A hash stored before fingerprints gets one at its
// first login (the token is known then); until then its tokens go through the gate's queue as before.
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Arbiter, CredentialInfo } from '../contract/index.ts';

export const TOKEN_FILE = 'arbiter-token.scrypt';
export const CREDENTIALS_FILE = 'arbiters.json';
const KEY_LENGTH = 32;

const hashSchema = z.strictObject({ algorithm: z.literal('scrypt'), salt: z.string().min(1), hash: z.string().min(1), check: z.string().min(1).optional() });
const storedSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{4,16}$/),
  name: z.string().min(1).max(40),
  role: z.enum(['deputy', 'sector']),
  sector: z.string().min(1).max(32).optional(),
  issuedAt: z.string(),
  issuedBy: z.string(),
  revokedAt: z.string().optional(),
  salt: z.string().min(1),
  hash: z.string().min(1),
  check: z.string().min(1).optional(),
});
const fileSchema = z.strictObject({ credentials: z.array(storedSchema) });
type Stored = z.infer<typeof storedSchema>;

export interface Credentials {
  /** Present only on the start that created the chief's token: print it once. */
  readonly newToken?: string;
  /** A token seen and accepted before (no scrypt): the arbiter, or undefined when it needs `verify`. */
  known(token: string): Arbiter | undefined;
  /**
   * What the stored fingerprint says of a token, without scrypt: `no` (not valid: every guess),
   * `match` (valid but for a 2^-64 chance; `verify` proves it), `unscreened` (its credential was stored
   * before fingerprints: only `verify` can tell).
   */
  screen(token: string): Screening;
  /** Checks a token (one scrypt, off the event loop); undefined when it is not valid or revoked. */
  verify(token: string): Promise<Arbiter | undefined>;
  /** A new named token; the secret is returned once and only its hash is kept. */
  issue(
    request: { readonly name: string; readonly role: 'deputy' | 'sector'; readonly sector?: string },
    by: string,
  ): Promise<{ token: string; credential: CredentialInfo }>;
  /**
   * Who holds a name in the team: the chief, or the holder of a credential not revoked (names compared
   * trimmed and without case: 'FA North' and 'fa north' are one arbiter to the people reading the PGN).
   */
  holderOf(name: string): Arbiter | undefined;
  /**
   * Who acts when `arbiter` says he is `claimed`: the printed chief's token has no name of its own and
   * takes the one he gives, never a team member's (the journal, the PGN and the page would show the
   * deputy's name on his actions); a named credential is always its own name. `holder`: whose name it is.
   */
  actingAs(arbiter: Arbiter, claimed: string | undefined): { readonly ok: true; readonly arbiter: Arbiter } | { readonly ok: false; readonly holder: Arbiter };
  /** Revokes a named credential; the chief's token cannot be revoked (delete its file and restart). */
  revoke(id: string, at?: Date): CredentialInfo | undefined;
  list(): CredentialInfo[];
}

export type Screening = 'no' | 'match' | 'unscreened';

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))));
}

const fingerprintOf = (secret: string, salt: string): Buffer => createHmac('sha256', Buffer.from(salt, 'base64')).update(secret).digest().subarray(0, 8);

async function hashOf(secret: string): Promise<{ salt: string; hash: string; check: string }> {
  const salt = randomBytes(16);
  const saltText = salt.toString('base64');
  return { salt: saltText, hash: (await scryptAsync(secret, salt)).toString('base64'), check: fingerprintOf(secret, saltText).toString('base64') };
}

function screenAgainst(secret: string, stored: { salt: string; check?: string | undefined }): Screening {
  if (stored.check === undefined) return 'unscreened';
  const expected = Buffer.from(stored.check, 'base64');
  const actual = fingerprintOf(secret, stored.salt);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? 'match' : 'no';
}

async function matches(secret: string, stored: { salt: string; hash: string }): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await scryptAsync(secret, Buffer.from(stored.salt, 'base64'));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const sameName = (name: string): string => name.trim().toLowerCase();
const digestOf = (token: string): string => createHash('sha256').update(token).digest('base64');
const info = ({ salt: _salt, hash: _hash, check: _check, ...rest }: Stored): CredentialInfo => rest;

/** Reads the stored hashes from `dataDir`, creating the chief's token (and hash) if there is none. */
export async function openCredentials(dataDir: string, chiefName = 'Chief Arbiter'): Promise<Credentials> {
  const chiefFile = join(dataDir, TOKEN_FILE);
  const namedFile = join(dataDir, CREDENTIALS_FILE);
  let newToken: string | undefined;
  if (!existsSync(chiefFile)) {
    newToken = randomBytes(18).toString('base64url');
    writeFileSync(chiefFile, JSON.stringify({ algorithm: 'scrypt', ...(await hashOf(newToken)) }) + '\n', { mode: 0o600, flag: 'wx' });
  }
  let chiefHash = hashSchema.parse(JSON.parse(readFileSync(chiefFile, 'utf8')));
  const named: Stored[] = existsSync(namedFile) ? fileSchema.parse(JSON.parse(readFileSync(namedFile, 'utf8'))).credentials : [];
  const chief: Arbiter = { id: 'chief', name: chiefName, role: 'chief' };
  // Accepted tokens are remembered by digest, so a reconnecting tablet does not pay for scrypt again.
  const accepted = new Map<string, string>();

  const replace = (file: string, text: string): void => {
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  };
  const save = (): void => replace(namedFile, JSON.stringify({ credentials: named }, null, 1) + '\n');
  /** The token's credential id, its secret, and the credential's stored hash (undefined: no such credential, or revoked). */
  const storedOf = (token: string) => {
    const dot = token.indexOf('.');
    const id = dot < 0 ? 'chief' : token.slice(0, dot);
    const secret = dot < 0 ? token : token.slice(dot + 1);
    return { id, secret, stored: id === 'chief' ? chiefHash : named.find((n) => n.id === id && n.revokedAt === undefined) };
  };
  /** A hash stored before fingerprints gets one once a token has proved itself against it. */
  const addFingerprint = (id: string, secret: string): void => {
    if (id === 'chief') {
      if (chiefHash.check !== undefined) return;
      chiefHash = { ...chiefHash, check: fingerprintOf(secret, chiefHash.salt).toString('base64') };
      return replace(chiefFile, JSON.stringify(chiefHash) + '\n');
    }
    const i = named.findIndex((n) => n.id === id);
    if (i < 0 || named[i]!.check !== undefined) return;
    named[i] = { ...named[i]!, check: fingerprintOf(secret, named[i]!.salt).toString('base64') };
    save();
  };
  const arbiterOf = (id: string): Arbiter | undefined => {
    if (id === 'chief') return chief;
    const c = named.find((n) => n.id === id && n.revokedAt === undefined);
    return c && { id: c.id, name: c.name, role: c.role, ...(c.sector ? { sector: c.sector } : {}) };
  };

  const holderOf = (name: string): Arbiter | undefined => {
    const key = sameName(name);
    if (sameName(chief.name) === key) return chief;
    const held = named.find((n) => n.revokedAt === undefined && sameName(n.name) === key);
    return held && arbiterOf(held.id);
  };
  return {
    ...(newToken ? { newToken } : {}),
    known(token) {
      const id = accepted.get(digestOf(token));
      return id === undefined ? undefined : arbiterOf(id);
    },
    screen(token) {
      const { secret, stored } = storedOf(token);
      return stored ? screenAgainst(secret, stored) : 'no';
    },
    async verify(token) {
      const digest = digestOf(token);
      const seen = accepted.get(digest);
      if (seen !== undefined) return arbiterOf(seen);
      const { id, secret, stored } = storedOf(token);
      if (!stored || !(await matches(secret, stored))) return undefined;
      const arbiter = arbiterOf(id); // revoked while scrypt ran?
      if (arbiter) {
        accepted.set(digest, id);
        addFingerprint(id, secret);
      }
      return arbiter;
    },
    async issue(request, by) {
      if (request.role === 'sector' && !request.sector) throw new RangeError('a sector arbiter needs a sector');
      let id: string;
      do id = randomBytes(5).toString('hex');
      while (named.some((n) => n.id === id));
      const secret = randomBytes(18).toString('base64url');
      const stored: Stored = {
        id,
        name: request.name,
        role: request.role,
        ...(request.role === 'sector' ? { sector: request.sector! } : {}),
        issuedAt: new Date().toISOString(),
        issuedBy: by,
        ...(await hashOf(secret)),
      };
      named.push(stored);
      save();
      return { token: `${id}.${secret}`, credential: info(stored) };
    },
    revoke(id, at = new Date()) {
      const i = named.findIndex((n) => n.id === id && n.revokedAt === undefined);
      if (i < 0) return undefined;
      named[i] = { ...named[i]!, revokedAt: at.toISOString() };
      for (const [digest, who] of accepted) if (who === id) accepted.delete(digest);
      save();
      return info(named[i]!);
    },
    holderOf,
    actingAs(arbiter, claimed) {
      if (arbiter.role !== 'chief' || !claimed) return { ok: true, arbiter };
      const holder = holderOf(claimed);
      return holder && holder.id !== arbiter.id ? { ok: false, holder } : { ok: true, arbiter: { ...arbiter, name: claimed } };
    },
    list: () => named.map(info),
  };
}
