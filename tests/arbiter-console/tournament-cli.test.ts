// `zeitnot serve --results FILE.trf`: the earlier rounds' results for a new round's console.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCrosstable, exportTrf } from '../../tournament/index.ts';

const serve = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', 'serve', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('zeitnot serve --results', () => {
  it('refuses a missing file and a TRF whose players are not the event\'s, and keeps no token of a failed start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-tournament-cli-'));
    try {
      const missing = serve('--event', 'cairns-cup-2019', '--round', '2', '--results', join(dir, 'none.trf'), '--data', join(dir, 'a'), '--port', '0');
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain(`--results '${join(dir, 'none.trf')}': no such file`);
      const file = join(dir, 'other.trf');
      writeFileSync(file, exportTrf(buildCrosstable([{ id: 42, name: 'Stranger, Some' }], [], { name: 'Other event' })));
      const stranger = serve('--event', 'cairns-cup-2019', '--round', '2', '--results', file, '--data', join(dir, 'b'), '--port', '0');
      expect(stranger.status).toBe(1);
      expect(stranger.stderr).toContain(`${file}: player 42 (Stranger, Some) is not in section 'main'`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
