import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCredentials } from '../../arbiter-console/internal.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'zeitnot-auth-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const filesContain = (secret: string): boolean => readdirSync(dir).some((f) => readFileSync(join(dir, f), 'utf8').includes(secret));

describe('credentials', () => {
  it("the chief's token is made on the first start, stored only as an scrypt hash, and checked on later starts", async () => {
    const first = await openCredentials(dir);
    const token = first.newToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(filesContain(token)).toBe(false);
    const stored = JSON.parse(readFileSync(join(dir, 'arbiter-token.scrypt'), 'utf8')) as { algorithm: string };
    expect(stored.algorithm).toBe('scrypt');
    expect(await first.verify(token)).toEqual({ id: 'chief', name: 'Chief Arbiter', role: 'chief' });
    expect(await first.verify(`${token}x`)).toBeUndefined();
    const second = await openCredentials(dir);
    expect(second.newToken).toBeUndefined();
    expect(second.known(token)).toBeUndefined(); // not checked on this start yet
    expect((await second.verify(token))?.role).toBe('chief');
    expect(second.known(token)?.role).toBe('chief');
    expect(await second.verify('')).toBeUndefined();
  });

  it('issues named tokens with a role, stored hashed, listed without secrets, revoked for good', async () => {
    const c = await openCredentials(dir);
    const deputy = await c.issue({ name: 'IA Deputy', role: 'deputy' }, 'IA Chief');
    const sector = await c.issue({ name: 'FA Sector', role: 'sector', sector: 'A' }, 'IA Chief');
    expect(deputy.token).toMatch(/^[0-9a-f]{10}\.[A-Za-z0-9_-]{24}$/);
    expect(filesContain(deputy.token.split('.')[1]!)).toBe(false);
    expect(await c.verify(deputy.token)).toEqual({ id: deputy.credential.id, name: 'IA Deputy', role: 'deputy' });
    expect(await c.verify(sector.token)).toEqual({ id: sector.credential.id, name: 'FA Sector', role: 'sector', sector: 'A' });
    // Another credential's id with this secret is no token.
    expect(await c.verify(`${deputy.credential.id}.${sector.token.split('.')[1]}`)).toBeUndefined();
    expect(c.list().map((x) => [x.name, x.role, x.issuedBy])).toEqual([
      ['IA Deputy', 'deputy', 'IA Chief'],
      ['FA Sector', 'sector', 'IA Chief'],
    ]);
    expect(JSON.stringify(c.list())).not.toMatch(/hash|salt/);
    expect(c.revoke(deputy.credential.id)?.revokedAt).toEqual(expect.any(String));
    expect(c.known(deputy.token)).toBeUndefined();
    expect(await c.verify(deputy.token)).toBeUndefined();
    const reopened = await openCredentials(dir);
    expect(await reopened.verify(deputy.token)).toBeUndefined();
    expect((await reopened.verify(sector.token))?.name).toBe('FA Sector');
    expect(reopened.revoke('chief')).toBeUndefined();
  });

  it('tells a wrong token by its fingerprint, without scrypt; a real one matches, a revoked one does not', async () => {
    const c = await openCredentials(dir);
    const deputy = await c.issue({ name: 'IA Deputy', role: 'deputy' }, 'IA Chief');
    expect(c.screen(c.newToken!)).toBe('match');
    expect(c.screen(deputy.token)).toBe('match');
    expect(c.screen(`${c.newToken!}x`)).toBe('no');
    expect(c.screen(`${deputy.credential.id}.${c.newToken!}`)).toBe('no');
    expect(c.screen('nobody.secret')).toBe('no');
    expect(c.screen('')).toBe('no');
    c.revoke(deputy.credential.id);
    expect(c.screen(deputy.token)).toBe('no');
    expect((await openCredentials(dir)).screen(c.newToken!)).toBe('match');
  });

  it('a hash stored before fingerprints gets one at its first login, and its tokens are unscreened until then', async () => {
    const token = randomBytes(18).toString('base64url');
    const salt = randomBytes(16);
    const legacy = { algorithm: 'scrypt', salt: salt.toString('base64'), hash: scryptSync(token, salt, 32).toString('base64') };
    writeFileSync(join(dir, 'arbiter-token.scrypt'), JSON.stringify(legacy) + '\n');
    const c = await openCredentials(dir);
    expect(c.screen('a guess')).toBe('unscreened');
    expect(await c.verify('a guess')).toBeUndefined();
    expect(c.screen('a guess')).toBe('unscreened');
    expect((await c.verify(token))?.role).toBe('chief');
    expect(c.screen('a guess')).toBe('no');
    expect(c.screen(token)).toBe('match');
    expect(filesContain(token)).toBe(false);
    const reopened = await openCredentials(dir);
    expect([reopened.screen('a guess'), reopened.screen(token)]).toEqual(['no', 'match']);
    expect((await reopened.verify(token))?.role).toBe('chief');
  });
});
