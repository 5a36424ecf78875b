import { createHmac, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCredentials, startConsole } from '../../arbiter-console/internal.ts';
import { helloClient } from '../support/ws-client.ts';
import { oneSectionConsole } from './fixtures.ts';
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

const WALL = Date.UTC(2026, 11, 5, 8);

/** A named credential issued as the team does: a new token, and the journal record that applies it. */
function issue(c: Credentials, who: { name: string; role: 'deputy' | 'sector'; sector?: string }) {
  const { id, token, hash } = c.newCredential();
  const change = { type: 'issueCredential', credential: id, ...who, hash } as const;
  c.apply(change, { wallMs: WALL, by: 'IA Chief' });
  return { id, token, change };
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

  it('issues named tokens with a role, their hashes on the journal records that apply them, listed without secrets, revoked for good', async () => {
    const c = openCredentials(dir);
    const deputy = issue(c, { name: 'IA Deputy', role: 'deputy' });
    const sector = issue(c, { name: 'FA Sector', role: 'sector', sector: 'A' });
    expect(deputy.token).toMatch(/^[0-9a-f]{10}\.[A-Za-z0-9_-]{24}$/);
    expect(filesContain(deputy.token.split('.')[1]!)).toBe(false);
    expect(JSON.stringify(deputy.change)).not.toContain(deputy.token.split('.')[1]);
    expect(await verify(c, deputy.token)).toEqual({ id: deputy.id, name: 'IA Deputy', role: 'deputy' });
    expect(await verify(c, sector.token)).toEqual({ id: sector.id, name: 'FA Sector', role: 'sector', sector: 'A' });
    // Another credential's id with this secret is no token.
    expect(await verify(c, `${deputy.id}.${sector.token.split('.')[1]}`)).toBeUndefined();
    expect(c.list().map((x) => [x.name, x.role, x.issuedBy, x.issuedAt])).toEqual([
      ['IA Deputy', 'deputy', 'IA Chief', '2026-12-05T08:00:00.000Z'],
      ['FA Sector', 'sector', 'IA Chief', '2026-12-05T08:00:00.000Z'],
    ]);
    expect(JSON.stringify(c.list())).not.toMatch(/hash|salt/);
    c.apply({ type: 'revokeCredential', credential: deputy.id, name: 'IA Deputy' }, { wallMs: WALL + 1000, by: 'IA Chief' });
    expect(c.list()[0]!.revokedAt).toBe('2026-12-05T08:00:01.000Z');
    expect(c.check(deputy.token)).toEqual({ kind: 'wrong' });
    // A console that applies the same records (a restart, another console on the bus) knows the same.
    const reopened = openCredentials(dir);
    for (const change of [deputy.change, sector.change, { type: 'revokeCredential', credential: deputy.id, name: 'IA Deputy' } as const])
      reopened.apply(change, { wallMs: WALL, by: 'IA Chief' });
    expect(await verify(reopened, deputy.token)).toBeUndefined();
    expect((await verify(reopened, sector.token))?.name).toBe('FA Sector');
  });

  it('tells a wrong token at once; a real one is valid, a revoked one is not', () => {
    const c = openCredentials(dir);
    const deputy = issue(c, { name: 'IA Deputy', role: 'deputy' });
    expect(c.check(c.newToken!).kind).toBe('valid');
    expect(c.check(deputy.token).kind).toBe('valid');
    expect(c.check(`${c.newToken!}x`).kind).toBe('wrong');
    expect(c.check(`${deputy.id}.${c.newToken!}`).kind).toBe('wrong');
    expect(c.check('nobody.secret').kind).toBe('wrong');
    expect(c.check('').kind).toBe('wrong');
    // A hash that is no hash (a damaged record): the credential has none, its tokens are wrong.
    c.apply({ type: 'credentialHash', credential: deputy.id, hash: { algorithm: 'sha256', salt: '', hash: '' } }, { wallMs: WALL, by: 'x' });
    expect(c.check(deputy.token).kind).toBe('valid');
    c.apply({ type: 'revokeCredential', credential: deputy.id, name: 'IA Deputy' }, { wallMs: WALL, by: 'IA Chief' });
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

  it("a named credential's earlier scrypt hash is checked by scrypt and rewritten as a keyed one, journaled, at its first login", async () => {
    const secret = randomBytes(18).toString('base64url');
    const c = openCredentials(dir);
    const journaled: object[] = [];
    c.journalRehash((by, change) => {
      journaled.push({ by: by.name, change });
      c.apply(change, { wallMs: WALL, by: by.name });
    });
    c.apply({ type: 'issueCredential', credential: 'abcdef0123', name: 'IA Deputy', role: 'deputy' }, { wallMs: WALL, by: 'IA Chief' });
    const token = `abcdef0123.${secret}`;
    // Issued before the journal kept hashes, its hash not moved yet: no token of it is valid.
    expect(c.check(token)).toEqual({ kind: 'wrong' });
    c.apply({ type: 'credentialHash', credential: 'abcdef0123', hash: scryptHash(secret, true) }, { wallMs: WALL, by: 'zeitnot' });
    expect(c.check(token)).toEqual({ kind: 'scrypt', screened: true });
    expect(c.check(`abcdef0123.${secret}x`)).toEqual({ kind: 'wrong' });
    expect(await c.verifyScrypt(token)).toEqual({ id: 'abcdef0123', name: 'IA Deputy', role: 'deputy' });
    expect(journaled).toEqual([
      { by: 'IA Deputy', change: { type: 'credentialHash', credential: 'abcdef0123', hash: expect.objectContaining({ algorithm: 'sha256' }) } },
    ]);
    expect(JSON.stringify(journaled)).not.toContain(secret);
    expect(c.check(token).kind).toBe('valid');
  });
});

describe('named credentials of an earlier version, kept in DIR/arbiters.json', () => {
  it('move into the journal at the first start after the upgrade; a token of one logs in and its hash is rewritten, journaled', async () => {
    const start = () => startConsole({ dataDir: dir, port: 0, noPage: true, ...oneSectionConsole({ boards: 2 }) });
    // An earlier version: the issue journaled without a hash, the hash in arbiters.json (scrypt, no `algorithm`).
    const before = await start();
    before.hall.record({
      kind: 'staff',
      at: before.hall.source.now(),
      by: 'IA Chief',
      credential: 'chief',
      change: { type: 'issueCredential', credential: 'abcdef0123', name: 'IA Deputy', role: 'deputy' },
    });
    await before.stop();
    const secret = randomBytes(18).toString('base64url');
    const { algorithm: _scrypt, ...hash } = scryptHash(secret, true);
    const stored = { id: 'abcdef0123', name: 'IA Deputy', role: 'deputy', issuedAt: '2026-01-01T00:00:00.000Z', issuedBy: 'IA Chief', ...hash };
    writeFileSync(join(dir, 'arbiters.json'), JSON.stringify({ credentials: [stored] }, null, 1) + '\n');
    const token = `abcdef0123.${secret}`;

    const upgraded = await start();
    try {
      expect(existsSync(join(dir, 'arbiters.json'))).toBe(false);
      expect(existsSync(join(dir, 'arbiters.json.moved-to-journal'))).toBe(true);
      const deputy = await helloClient(upgraded.url, { role: 'arbiter', token });
      expect(deputy.messages[0]).toMatchObject({ type: 'welcome', arbiter: { id: 'abcdef0123', name: 'IA Deputy', role: 'deputy' } });
      deputy.ws.terminate();
      const changes = [...upgraded.journal.entries(0, 'staff')].map((e) => e.record.kind === 'staff' && [e.record.by, e.record.change.type, e.record.change]);
      expect(changes.slice(1)).toEqual([
        [
          'zeitnot (arbiters.json moved into the journal)',
          'credentialHash',
          expect.objectContaining({ hash: expect.objectContaining({ algorithm: 'scrypt' }) }),
        ],
        ['IA Deputy', 'credentialHash', expect.objectContaining({ hash: expect.objectContaining({ algorithm: 'sha256' }) })],
      ]);
      expect(JSON.stringify([...upgraded.journal.entries(0)])).not.toContain(secret);
    } finally {
      await upgraded.stop();
    }
    // Read once: a restart has it from the journal, already keyed.
    const again = await start();
    try {
      expect(again.team.credentials.check(token)).toEqual({ kind: 'valid', arbiter: { id: 'abcdef0123', name: 'IA Deputy', role: 'deputy' } });
      expect([...again.journal.entries(0, 'staff')]).toHaveLength(3);
    } finally {
      await again.stop();
    }
  }, 60_000);
});
