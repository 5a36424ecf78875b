// The arbiters' credentials. The chief arbiter's token is generated on the first start and shown once;
// with it the chief issues, lists and revokes named tokens for deputies and sector arbiters. A named
// token is `<id>.<secret>`, the chief's the secret alone; every secret is 144 random bits made here.
//
// Only a hash of each secret is kept: HMAC-SHA-256 of the secret keyed by a random salt (`sha256`),
// checked in microseconds on the event loop. A slow hash (scrypt) exists to make guessing a low-entropy
// password from a stolen hash expensive; against 144 random bits it buys nothing (2^144 guesses of
// anything is out of reach) and costs every first login ~50 ms of CPU, 200 tablets at once 10 s of it.
// So a token is checked at once, whatever the flood.
//
// Where the hashes are: the chief's in DIR/arbiter-token.hash (his token is this console's own); the
// named ones in the journal, on the `staff` records that issue them (team.ts journals them, this file
// keeps their projection), so on the bus every console of the event knows every credential and every
// revocation. Earlier versions kept the named hashes in DIR/arbiters.json: `readCredentialsFile`
// reads it once, at the first start after the upgrade, and the team journals them.
//
// Earlier versions' hashes are scrypt hashes (the chief's in DIR/arbiter-token.scrypt): still
// accepted, through the login gate (server/login-gate.ts), and rewritten as `sha256` at their first
// login, when the token is known. Some carry a fingerprint (`check`: 8 bytes of an HMAC of the secret
// keyed by the salt) that tells a guess from a real token without scrypt until then.
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Arbiter, CredentialHash, CredentialInfo, StaffChange } from '../contract/index.ts';

/** The chief's token's hash. */
export const TOKEN_FILE = 'arbiter-token.hash';
/** The chief's scrypt hash of earlier versions: read while it is there, replaced by TOKEN_FILE at his first login. */
export const SCRYPT_TOKEN_FILE = 'arbiter-token.scrypt';
/** Earlier versions' named credentials; moved into the journal at the first start after the upgrade. */
export const CREDENTIALS_FILE = 'arbiters.json';
/** What CREDENTIALS_FILE is renamed to once moved: kept for the operator, never read again. */
export const MOVED_CREDENTIALS_FILE = 'arbiters.json.moved-to-journal';
const KEY_LENGTH = 32;

const base64 = z.string().min(1).max(200);
const keyedHash = z.strictObject({ algorithm: z.literal('sha256'), salt: base64, hash: base64 });
const scryptHash = z.strictObject({ algorithm: z.literal('scrypt'), salt: base64, hash: base64, check: base64.optional() });
const hashSchema = z.discriminatedUnion('algorithm', [keyedHash, scryptHash]);
/** A named credential in an earlier version's DIR/arbiters.json: one without `algorithm` was stored by scrypt. */
const storedSchema = z.looseObject({
  id: z.string().regex(/^[a-z0-9]{4,16}$/),
  algorithm: z.enum(['sha256', 'scrypt']).optional(),
  salt: base64,
  hash: base64,
  check: base64.optional(),
});
const fileSchema = z.looseObject({ credentials: z.array(storedSchema) });

/**
 * What a token is, told on the event loop: `valid` (its hash checked), `wrong` (no such credential,
 * revoked, or a wrong secret), or `scrypt`: its credential's hash is an earlier version's, only
 * `verifyScrypt` can tell; `screened` when that hash's fingerprint matched (a real token, but for a
 * 2^-64 chance), false when it has none.
 */
export type TokenCheck =
  { readonly kind: 'valid'; readonly arbiter: Arbiter } | { readonly kind: 'wrong' } | { readonly kind: 'scrypt'; readonly screened: boolean };

/** A named credential as the journal made it. */
interface Named extends CredentialInfo {
  /** Undefined while an issue journaled before the journal kept hashes waits for its `credentialHash`. */
  readonly hash: CredentialHash | undefined;
}

/** When and by whom a staff record was journaled. */
export interface StaffRecordPlace {
  readonly wallMs: number;
  readonly by: string;
}

export interface Credentials {
  /** Present only on the start that created the chief's token: print it once. */
  readonly newToken?: string;
  check(token: string): TokenCheck;
  /**
   * Checks a token whose credential has a scrypt hash (`check` said `scrypt`): one scrypt, off the event
   * loop. A token that passes has its hash rewritten as `sha256` (the chief's in its file, a named one
   * through `journalRehash`). Undefined when not valid or revoked.
   */
  verifyScrypt(token: string): Promise<Arbiter | undefined>;
  /** Who journals a named credential's rewritten hash (the team); the record comes back through `apply`. */
  journalRehash(journal: (by: Arbiter, change: Extract<StaffChange, { type: 'credentialHash' }>) => void): void;
  /** A new named token's id (unused in the team), the token (shown once), and the hash its issue record carries. */
  newCredential(): { id: string; token: string; hash: CredentialHash };
  /** A journaled staff record's effect on the credentials (other records are the team's). */
  apply(change: StaffChange, place: StaffRecordPlace): void;
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
  /** Every named credential (the chief's token is not one: it cannot be revoked; delete its file and restart). */
  list(): CredentialInfo[];
  /** A credential's stored hash (tests: the journal holds it, never the secret). */
  hashOf(id: string): CredentialHash | undefined;
}

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))));
}

const keyed = (secret: string, salt: string): Buffer => createHmac('sha256', Buffer.from(salt, 'base64')).update(secret).digest();
const equal = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** A new secret's hash, with a salt of its own. */
function keyedHashOf(secret: string): CredentialHash {
  const salt = randomBytes(16).toString('base64');
  return { algorithm: 'sha256', salt, hash: keyed(secret, salt).toString('base64') };
}

/** What a stored hash says of a secret on the event loop (a scrypt hash says at most that its fingerprint matched). */
function checkAgainst(secret: string, stored: CredentialHash): 'valid' | 'wrong' | 'scrypt' | 'screened' {
  if (stored.algorithm === 'sha256') return equal(keyed(secret, stored.salt), Buffer.from(stored.hash, 'base64')) ? 'valid' : 'wrong';
  if (stored.check === undefined) return 'scrypt';
  return equal(keyed(secret, stored.salt).subarray(0, 8), Buffer.from(stored.check, 'base64')) ? 'screened' : 'wrong';
}

async function scryptMatches(secret: string, stored: CredentialHash): Promise<boolean> {
  return equal(await scryptAsync(secret, Buffer.from(stored.salt, 'base64')), Buffer.from(stored.hash, 'base64'));
}

/** A hash as the journal or the bus handed it over: checked here once (undefined: not a hash). */
const parsedHash = (hash: unknown): CredentialHash | undefined => {
  const parsed = hashSchema.safeParse(hash);
  return parsed.success ? parsed.data : undefined;
};

const sameName = (name: string): string => name.trim().toLowerCase();
const infoOf = ({ hash: _hash, ...info }: Named): CredentialInfo => info;

const replace = (file: string, text: string): void => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, file);
};

/**
 * The named credentials' hashes an earlier version kept in DIR/arbiters.json, or undefined when there is
 * no such file (moved already, or never made). `retire` renames it once the team has journaled them.
 */
export function readCredentialsFile(dataDir: string): { readonly hashes: ReadonlyMap<string, CredentialHash>; retire(): void } | undefined {
  const file = join(dataDir, CREDENTIALS_FILE);
  if (!existsSync(file)) return undefined;
  const { credentials } = fileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const hashes = new Map<string, CredentialHash>(
    credentials.map((c) => [
      c.id,
      c.algorithm === 'sha256'
        ? { algorithm: 'sha256', salt: c.salt, hash: c.hash }
        : { algorithm: 'scrypt', salt: c.salt, hash: c.hash, ...(c.check !== undefined ? { check: c.check } : {}) },
    ]),
  );
  return { hashes, retire: () => renameSync(file, join(dataDir, MOVED_CREDENTIALS_FILE)) };
}

/** Reads the chief's hash from `dataDir`, creating his token (and hash) if there is none; the named credentials come from `apply`. */
export function openCredentials(dataDir: string, chiefName = 'Chief Arbiter'): Credentials {
  const chiefFile = join(dataDir, TOKEN_FILE);
  const scryptChiefFile = join(dataDir, SCRYPT_TOKEN_FILE);
  let newToken: string | undefined;
  // An earlier version's scrypt hash is the chief's until his first login moves it (both are there only
  // if a stop came between writing the new file and removing the old: they are hashes of one token).
  const fromScrypt = existsSync(scryptChiefFile);
  if (!fromScrypt && !existsSync(chiefFile)) {
    newToken = randomBytes(18).toString('base64url');
    writeFileSync(chiefFile, JSON.stringify(keyedHashOf(newToken)) + '\n', { mode: 0o600, flag: 'wx' });
  }
  let chiefHash: CredentialHash = hashSchema.parse(JSON.parse(readFileSync(fromScrypt ? scryptChiefFile : chiefFile, 'utf8')));
  const named = new Map<string, Named>();
  const chief: Arbiter = { id: 'chief', name: chiefName, role: 'chief' };
  let journalRehash: ((by: Arbiter, change: Extract<StaffChange, { type: 'credentialHash' }>) => void) | undefined;

  const live = (id: string): Named | undefined => {
    const c = named.get(id);
    return c && c.revokedAt === undefined ? c : undefined;
  };
  /** The token's credential id, its secret, and the credential's stored hash (undefined: no such credential, revoked, or no hash yet). */
  const storedOf = (token: string): { id: string; secret: string; stored: CredentialHash | undefined } => {
    const dot = token.indexOf('.');
    if (dot < 0) return { id: 'chief', secret: token, stored: chiefHash };
    const id = token.slice(0, dot);
    return { id, secret: token.slice(dot + 1), stored: live(id)?.hash };
  };
  const arbiterOf = (id: string): Arbiter | undefined => {
    if (id === 'chief') return chief;
    const c = live(id);
    return c && { id: c.id, name: c.name, role: c.role, ...(c.sector ? { sector: c.sector } : {}) };
  };
  /** A scrypt hash is replaced by a keyed one once a token has proved itself against it. */
  const rehash = (arbiter: Arbiter, secret: string): void => {
    const hash = keyedHashOf(secret);
    if (arbiter.id === 'chief') {
      chiefHash = hash;
      replace(chiefFile, JSON.stringify(hash) + '\n');
      return rmSync(scryptChiefFile, { force: true });
    }
    // A journal that cannot write now leaves the scrypt hash: the next login rewrites it.
    try {
      journalRehash?.(arbiter, { type: 'credentialHash', credential: arbiter.id, hash });
    } catch {
      return;
    }
  };
  const holderOf = (name: string): Arbiter | undefined => {
    const key = sameName(name);
    if (sameName(chief.name) === key) return chief;
    for (const c of named.values()) if (c.revokedAt === undefined && sameName(c.name) === key) return arbiterOf(c.id);
    return undefined;
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
      if (arbiter && storedOf(token).stored?.algorithm === 'scrypt') rehash(arbiter, secret);
      return arbiter;
    },
    journalRehash(journal) {
      journalRehash = journal;
    },
    newCredential() {
      let id: string;
      do id = randomBytes(5).toString('hex');
      while (named.has(id));
      const secret = randomBytes(18).toString('base64url');
      return { id, token: `${id}.${secret}`, hash: keyedHashOf(secret) };
    },
    apply(change, place) {
      const at = new Date(place.wallMs).toISOString();
      if (change.type === 'issueCredential') {
        if (change.role === 'chief' || named.has(change.credential)) return;
        named.set(change.credential, {
          id: change.credential,
          name: change.name,
          role: change.role,
          ...(change.sector !== undefined ? { sector: change.sector } : {}),
          issuedAt: at,
          issuedBy: place.by,
          hash: parsedHash(change.hash),
        });
      } else if (change.type === 'revokeCredential') {
        const c = named.get(change.credential);
        if (c && c.revokedAt === undefined) named.set(c.id, { ...c, revokedAt: at });
      } else if (change.type === 'credentialHash') {
        const c = named.get(change.credential);
        const hash = parsedHash(change.hash);
        if (c && hash) named.set(c.id, { ...c, hash });
      }
    },
    holderOf,
    actingAs(arbiter, claimed) {
      if (arbiter.role !== 'chief' || !claimed) return { ok: true, arbiter };
      const holder = holderOf(claimed);
      return holder && holder.id !== arbiter.id ? { ok: false, holder } : { ok: true, arbiter: { ...arbiter, name: claimed } };
    },
    list: () => [...named.values()].map(infoOf),
    hashOf: (id) => named.get(id)?.hash,
  };
}
