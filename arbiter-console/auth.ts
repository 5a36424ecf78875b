// The arbiter token: generated on first start, shown once, stored only as an scrypt hash.
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'arbiter-token.scrypt';
const KEY_LENGTH = 32;

interface StoredHash {
  readonly algorithm: 'scrypt';
  readonly salt: string;
  readonly hash: string;
}

export interface ArbiterAuth {
  /** Present only on the start that created the token: print it once. */
  readonly newToken?: string;
  verify(token: string): Promise<boolean>;
}

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Reads the stored hash from `dataDir`, creating a new token (and hash) if there is none. */
export async function arbiterAuth(dataDir: string): Promise<ArbiterAuth> {
  const file = join(dataDir, TOKEN_FILE);
  let newToken: string | undefined;
  if (!existsSync(file)) {
    newToken = randomBytes(18).toString('base64url');
    const salt = randomBytes(16);
    const stored: StoredHash = { algorithm: 'scrypt', salt: salt.toString('base64'), hash: (await scryptAsync(newToken, salt)).toString('base64') };
    writeFileSync(file, JSON.stringify(stored) + '\n', { mode: 0o600, flag: 'wx' });
  }
  const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredHash;
  const salt = Buffer.from(stored.salt, 'base64');
  const expected = Buffer.from(stored.hash, 'base64');
  // Accepted tokens are remembered by digest so a reconnecting arbiter does not pay for scrypt again.
  const accepted = new Set<string>();
  return {
    ...(newToken ? { newToken } : {}),
    async verify(token) {
      const digest = createHash('sha256').update(token).digest('base64');
      if (accepted.has(digest)) return true;
      const key = await scryptAsync(token, salt);
      const ok = key.length === expected.length && timingSafeEqual(key, expected);
      if (ok) accepted.add(digest);
      return ok;
    },
  };
}
