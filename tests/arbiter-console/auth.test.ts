import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { arbiterAuth } from '../../arbiter-console/index.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('arbiter token', () => {
  it('is made on the first start, stored only as an scrypt hash, and checked on later starts', async () => {
    dir = mkdtempSync(join(tmpdir(), 'zeitnot-auth-'));
    const first = await arbiterAuth(dir);
    const token = first.newToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(token);
    const stored = JSON.parse(readFileSync(join(dir, 'arbiter-token.scrypt'), 'utf8')) as { algorithm: string };
    expect(stored.algorithm).toBe('scrypt');
    expect(await first.verify(token)).toBe(true);
    expect(await first.verify(`${token}x`)).toBe(false);
    const second = await arbiterAuth(dir);
    expect(second.newToken).toBeUndefined();
    expect(await second.verify(token)).toBe(true);
    expect(await second.verify('')).toBe(false);
  });
});
