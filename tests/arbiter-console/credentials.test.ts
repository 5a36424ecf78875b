import { createHmac, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCredentials } from '../../arbiter-console/internal.ts';
import type { Arbiter, Credentials } from '../../arbiter-console/internal.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'zeitnot-auth-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const filesContain = (secret: string): boolean => readdirSync(dir).some((f) => readFileSync(join(dir, f), 'utf8').includes(secret));

/** The arbiter a token names, as the login gate finds it: at once, or by scrypt for an earlier version's hash. */
async function verify(c: Credentials, token: string): Promise<Arbiter | undefined> {
  const checked = c.check(token);
  if (checked.kind === 'valid') return checked.arbiter;
  return checked.kind === 'wrong' ? undefined : c.verifyScrypt(token);
}

/** An earlier version's scrypt hash of `secret`, with the fingerprint it added at a first login when `fingerprint`. */
function scryptHash(secret: string, fingerprint: boolean): { algorithm: 'scrypt'; salt: string; hash: string; check?: string } {
  const salt = randomBytes(16);
  const check = createHmac('sha256', salt).update(secret).digest().subarray(0, 8).toString('base64');
  return { algorithm: 'scrypt', salt: salt.toString('base64'), hash: scryptSync(secret, salt, 32).toString('base64'), ...(fingerprint ? { check } : {}) };
}

describe('credentials', () => {
  it("the chief's token is made on the first start, stored only as a keyed SHA-256 hash, and checked at once on later starts", async () => {
    const first = openCredentials(dir);
    const token = first.newToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(filesContain(token)).toBe(false);
    const stored = JSON.parse(readFileSync(join(dir, 'arbiter-token.hash'), 'utf8')) as { algorithm: string; salt: string; hash: string };
    expect(stored.algorithm).toBe('sha256');
    expect(Buffer.from(stored.salt, 'base64')).toHaveLength(16);
    expect(stored.hash).toBe(createHmac('sha256', Buffer.from(stored.salt, 'base64')).update(token).digest('base64'));
    expect(await verify(first, token)).toEqual({ id: 'chief', name: 'Chief Arbiter', role: 'chief' });
    expect(await verify(first, `${token}x`)).toBeUndefined();
    const second = openCredentials(dir);
    expect(second.newToken).toBeUndefined();
    expect(second.check(token)).toEqual({ kind: 'valid', arbiter: { id: 'chief', name: 'Chief Arbiter', role: 'chief' } });
    expect(second.check('')).toEqual({ kind: 'wrong' });
  });

  it('issues named tokens with a role, stored hashed, listed without secrets, revoked for good', async () => {
    const c = openCredentials(dir);
    const deputy = c.issue({ name: 'IA Deputy', role: 'deputy' }, 'IA Chief');
    const sector = c.issue({ name: 'FA Sector', role: 'sector', sector: 'A' }, 'IA Chief');
    expect(deputy.token).toMatch(/^[0-9a-f]{10}\.[A-Za-z0-9_-]{24}$/);
    expect(filesContain(deputy.token.split('.')[1]!)).toBe(false);
    expect(await verify(c, deputy.token)).toEqual({ id: deputy.credential.id, name: 'IA Deputy', role: 'deputy' });
    expect(await verify(c, sector.token)).toEqual({ id: sector.credential.id, name: 'FA Sector', role: 'sector', sector: 'A' });
    // Another credential's id with this secret is no token.
    expect(await verify(c, `${deputy.credential.id}.${sector.token.split('.')[1]}`)).toBeUndefined();
    expect(c.list().map((x) => [x.name, x.role, x.issuedBy])).toEqual([
      ['IA Deputy', 'deputy', 'IA Chief'],
      ['FA Sector', 'sector', 'IA Chief'],
    ]);
    expect(JSON.stringify(c.list())).not.toMatch(/hash|salt/);
    expect(c.revoke(deputy.credential.id)?.revokedAt).toEqual(expect.any(String));
    expect(c.check(deputy.token)).toEqual({ kind: 'wrong' });
    const reopened = openCredentials(dir);
    expect(await verify(reopened, deputy.token)).toBeUndefined();
    expect((await verify(reopened, sector.token))?.name).toBe('FA Sector');
    expect(reopened.revoke('chief')).toBeUndefined();
  });

  it('tells a wrong token at once; a real one is valid, a revoked one is not', () => {
    const c = openCredentials(dir);
    const deputy = c.issue({ name: 'IA Deputy', role: 'deputy' }, 'IA Chief');
    expect(c.check(c.newToken!).kind).toBe('valid');
    expect(c.check(deputy.token).kind).toBe('valid');
    expect(c.check(`${c.newToken!}x`).kind).toBe('wrong');
    expect(c.check(`${deputy.credential.id}.${c.newToken!}`).kind).toBe('wrong');
    expect(c.check('nobody.secret').kind).toBe('wrong');
    expect(c.check('').kind).toBe('wrong');
    c.revoke(deputy.credential.id);
    expect(c.check(deputy.token).kind).toBe('wrong');
    expect(openCredentials(dir).check(c.newToken!).kind).toBe('valid');
  });

  it("an earlier version's scrypt hash of the chief's token is checked by scrypt, moved to arbiter-token.hash at its first login, and screened by its fingerprint until then", async () => {
    const token = randomBytes(18).toString('base64url');
    writeFileSync(join(dir, 'arbiter-token.scrypt'), JSON.stringify(scryptHash(token, false)) + '\n');
    const c = openCredentials(dir);
    expect(c.newToken).toBeUndefined();
    // Without a fingerprint only scrypt tells a guess.
    expect(c.check('a guess')).toEqual({ kind: 'scrypt', screened: false });
    expect(await verify(c, 'a guess')).toBeUndefined();
    expect((await verify(c, token))?.role).toBe('chief');
    expect(existsSync(join(dir, 'arbiter-token.scrypt'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'arbiter-token.hash'), 'utf8'))).toMatchObject({ algorithm: 'sha256' });
    expect([c.check('a guess').kind, c.check(token).kind]).toEqual(['wrong', 'valid']);
    expect(filesContain(token)).toBe(false);
    expect(openCredentials(dir).check(token).kind).toBe('valid');

    // One stored with a fingerprint (the version before this one added it at a first login).
    rmSync(join(dir, 'arbiter-token.hash'));
    writeFileSync(join(dir, 'arbiter-token.scrypt'), JSON.stringify(scryptHash(token, true)) + '\n');
    const fingerprinted = openCredentials(dir);
    expect(fingerprinted.check('a guess')).toEqual({ kind: 'wrong' });
    expect(fingerprinted.check(token)).toEqual({ kind: 'scrypt', screened: true });
    expect((await verify(fingerprinted, token))?.role).toBe('chief');
    expect(fingerprinted.check(token).kind).toBe('valid');
  });

  it("a named credential's scrypt hash in arbiters.json is rewritten as a keyed one at its first login", async () => {
    const secret = randomBytes(18).toString('base64url');
    const { algorithm: _scrypt, ...hash } = scryptHash(secret, true);
    const stored = { id: 'abcdef0123', name: 'IA Deputy', role: 'deputy', issuedAt: '2026-01-01T00:00:00.000Z', issuedBy: 'IA Chief', ...hash };
    writeFileSync(join(dir, 'arbiters.json'), JSON.stringify({ credentials: [stored] }) + '\n');
    const c = openCredentials(dir);
    const token = `abcdef0123.${secret}`;
    expect(c.check(token)).toEqual({ kind: 'scrypt', screened: true });
    expect(c.check(`abcdef0123.${secret}x`)).toEqual({ kind: 'wrong' });
    expect(await c.verifyScrypt(token)).toEqual({ id: 'abcdef0123', name: 'IA Deputy', role: 'deputy' });
    expect(c.check(token).kind).toBe('valid');
    const file = JSON.parse(readFileSync(join(dir, 'arbiters.json'), 'utf8')) as { credentials: object[] };
    expect(file.credentials[0]).toMatchObject({ id: 'abcdef0123', algorithm: 'sha256' });
    expect(file.credentials[0]).not.toHaveProperty('check');
    expect(openCredentials(dir).check(token).kind).toBe('valid');
  });
});
