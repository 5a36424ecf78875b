// The arbiters' credentials. The chief arbiter's token is generated on the first start and shown once;
// with it the chief issues, lists and revokes named tokens for deputies and sector arbiters. A named
// token is `<id>.<secret>`, the chief's the secret alone; every secret is 144 random bits made here.
//
// Only a hash of each secret is stored: the chief's in DIR/arbiter-token.hash, the named ones in
// DIR/arbiters.json. The hash is HMAC-SHA-256 of the secret keyed by a random salt (`sha256`), checked
// in microseconds on the event loop. A slow hash (scrypt) exists to make guessing a low-entropy password
// from a stolen hash expensive; against 144 random bits it buys nothing (2^144 guesses of anything is
// out of reach) and costs every first login ~50 ms of CPU, 200 tablets at once 10 s of it. So a
// token is checked at once, whatever the flood. Hashes stored by earlier versions are scrypt hashes
// (the chief's in DIR/arbiter-token.scrypt): they are still accepted, through the login gate
// (server/login-gate.ts), and rewritten as `sha256` at their first login, when the token is known.
// Some carry a fingerprint (`check`: 8 bytes of an HMAC of the secret keyed by the salt), which tells
// a guess from a real token without scrypt until then.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Arbiter, CredentialInfo } from '../contract/index.ts';

/** The chief's token's hash. */
export const TOKEN_FILE = 'arbiter-token.hash';
/** The chief's scrypt hash of earlier versions: read while it is there, replaced by TOKEN_FILE at his first login. */
export const SCRYPT_TOKEN_FILE = 'arbiter-token.scrypt';
export const CREDENTIALS_FILE = 'arbiters.json';
const KEY_LENGTH = 32;

const base64 = z.string().min(1);
const keyedHash = z.strictObject({ algorithm: z.literal('sha256'), salt: base64, hash: base64 });
const scryptHash = z.strictObject({ algorithm: z.literal('scrypt'), salt: base64, hash: base64, check: base64.optional() });
const chiefSchema = z.discriminatedUnion('algorithm', [keyedHash, scryptHash]);
/** A named credential in DIR/arbiters.json: one without `algorithm` was stored by scrypt (earlier versions). */
const storedSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{4,16}$/),
  name: z.string().min(1).max(40),
  role: z.enum(['deputy', 'sector']),
  sector: z.string().min(1).max(32).optional(),
  issuedAt: z.string(),
  issuedBy: z.string(),
  revokedAt: z.string().optional(),
  algorithm: z.enum(['sha256', 'scrypt']).optional(),
  salt: base64,
  hash: base64,
  check: base64.optional(),
});
const fileSchema = z.strictObject({ credentials: z.array(storedSchema) });
type Stored = z.infer<typeof storedSchema>;
type StoredHash = z.infer<typeof chiefSchema>;

/**
 * What a token is, told on the event loop: `valid` (its hash checked), `wrong` (no such credential,
 * revoked, or a wrong secret), or `scrypt`: its credential's hash is an earlier version's, only
 * `verifyScrypt` can tell; `screened` when that hash's fingerprint matched (a real token, but for a
 * 2^-64 chance), false when it has none.
 */
export type TokenCheck =
  { readonly kind: 'valid'; readonly arbiter: Arbiter } | { readonly kind: 'wrong' } | { readonly kind: 'scrypt'; readonly screened: boolean };

export interface Credentials {
  /** Present only on the start that created the chief's token: print it once. */
  readonly newToken?: string;
  check(token: string): TokenCheck;
  /**
   * Checks a token whose credential has a scrypt hash (`check` said `scrypt`): one scrypt, off the event
   * loop; a token that passes has its hash rewritten as `sha256`. Undefined when not valid or revoked.
   */
  verifyScrypt(token: string): Promise<Arbiter | undefined>;
  /** A new named token; the secret is returned once and only its hash is kept. */
  issue(
    request: { readonly name: string; readonly role: 'deputy' | 'sector'; readonly sector?: string },
    by: string,
  ): { token: string; credential: CredentialInfo };
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

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))));
}

const keyed = (secret: string, salt: string): Buffer => createHmac('sha256', Buffer.from(salt, 'base64')).update(secret).digest();
const equal = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** A new secret's hash, with a salt of its own. */
function keyedHashOf(secret: string): { algorithm: 'sha256'; salt: string; hash: string } {
  const salt = randomBytes(16).toString('base64');
  return { algorithm: 'sha256', salt, hash: keyed(secret, salt).toString('base64') };
}

/** What a stored hash says of a secret on the event loop (a scrypt hash says at most that its fingerprint matched). */
function checkAgainst(secret: string, stored: StoredHash): 'valid' | 'wrong' | 'scrypt' | 'screened' {
  if (stored.algorithm === 'sha256') return equal(keyed(secret, stored.salt), Buffer.from(stored.hash, 'base64')) ? 'valid' : 'wrong';
  if (stored.check === undefined) return 'scrypt';
  return equal(keyed(secret, stored.salt).subarray(0, 8), Buffer.from(stored.check, 'base64')) ? 'screened' : 'wrong';
}

async function scryptMatches(secret: string, stored: { salt: string; hash: string }): Promise<boolean> {
  return equal(await scryptAsync(secret, Buffer.from(stored.salt, 'base64')), Buffer.from(stored.hash, 'base64'));
}

const hashOfStored = (s: Stored): StoredHash =>
  s.algorithm === 'sha256'
    ? { algorithm: 'sha256', salt: s.salt, hash: s.hash }
    : { algorithm: 'scrypt', salt: s.salt, hash: s.hash, ...(s.check !== undefined ? { check: s.check } : {}) };
const sameName = (name: string): string => name.trim().toLowerCase();
const info = ({ algorithm: _a, salt: _salt, hash: _hash, check: _check, ...rest }: Stored): CredentialInfo => rest;

const replace = (file: string, text: string): void => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
};

/** Reads the stored hashes from `dataDir`, creating the chief's token (and hash) if there is none. */
export function openCredentials(dataDir: string, chiefName = 'Chief Arbiter'): Credentials {
  const chiefFile = join(dataDir, TOKEN_FILE);
  const scryptChiefFile = join(dataDir, SCRYPT_TOKEN_FILE);
  const namedFile = join(dataDir, CREDENTIALS_FILE);
  let newToken: string | undefined;
  // An earlier version's scrypt hash is the chief's until his first login moves it (both are there only
  // if a stop came between writing the new file and removing the old: they are hashes of one token).
  const fromScrypt = existsSync(scryptChiefFile);
  if (!fromScrypt && !existsSync(chiefFile)) {
    newToken = randomBytes(18).toString('base64url');
    writeFileSync(chiefFile, JSON.stringify(keyedHashOf(newToken)) + '\n', { mode: 0o600, flag: 'wx' });
  }
  let chiefHash: StoredHash = chiefSchema.parse(JSON.parse(readFileSync(fromScrypt ? scryptChiefFile : chiefFile, 'utf8')));
  const named: Stored[] = existsSync(namedFile) ? fileSchema.parse(JSON.parse(readFileSync(namedFile, 'utf8'))).credentials : [];
  const chief: Arbiter = { id: 'chief', name: chiefName, role: 'chief' };

  const save = (): void => replace(namedFile, JSON.stringify({ credentials: named }, null, 1) + '\n');
  /** The token's credential id, its secret, and the credential's stored hash (undefined: no such credential, or revoked). */
  const storedOf = (token: string): { id: string; secret: string; stored: StoredHash | undefined } => {
    const dot = token.indexOf('.');
    if (dot < 0) return { id: 'chief', secret: token, stored: chiefHash };
    const id = token.slice(0, dot);
    const credential = named.find((n) => n.id === id && n.revokedAt === undefined);
    return { id, secret: token.slice(dot + 1), stored: credential && hashOfStored(credential) };
  };
  /** A scrypt hash is replaced by a keyed one once a token has proved itself against it. */
  const rehash = (id: string, secret: string): void => {
    const hash = keyedHashOf(secret);
    if (id === 'chief') {
      chiefHash = hash;
      replace(chiefFile, JSON.stringify(hash) + '\n');
      return rmSync(scryptChiefFile, { force: true });
    }
    const i = named.findIndex((n) => n.id === id);
    if (i < 0) return;
    const { check: _check, ...rest } = named[i]!;
    named[i] = { ...rest, ...hash };
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
    check(token) {
      const { id, secret, stored } = storedOf(token);
      const said = stored ? checkAgainst(secret, stored) : 'wrong';
      if (said === 'valid') return { kind: 'valid', arbiter: arbiterOf(id)! };
      if (said === 'wrong') return { kind: 'wrong' };
      return { kind: 'scrypt', screened: said === 'screened' };
    },
    async verifyScrypt(token) {
      const { id, secret, stored } = storedOf(token);
      if (stored?.algorithm !== 'scrypt' || !(await scryptMatches(secret, stored))) return undefined;
      const arbiter = arbiterOf(id); // revoked while scrypt ran?
      // Rehashed meanwhile by another tablet's check of the same token: already keyed.
      if (arbiter && storedOf(token).stored?.algorithm === 'scrypt') rehash(id, secret);
      return arbiter;
    },
    issue(request, by) {
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
        ...keyedHashOf(secret),
      };
      named.push(stored);
      save();
      return { token: `${id}.${secret}`, credential: info(stored) };
    },
    revoke(id, at = new Date()) {
      const i = named.findIndex((n) => n.id === id && n.revokedAt === undefined);
      if (i < 0) return undefined;
      named[i] = { ...named[i]!, revokedAt: at.toISOString() };
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
