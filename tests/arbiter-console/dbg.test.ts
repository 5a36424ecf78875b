import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { demoLateArrivals, roundFromEvent, startConsole } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';
it('dbg', async () => {
  process.on('uncaughtException', (e) => console.log('UNCAUGHT', e.message));
  const c = await startConsole({ dataDir: mkdtempSync(join(tmpdir(), 'zd-')), port: 0, noPage: true, scale: 30, autoStart: true, round: (m) => roundFromEvent(presetEvent('cairns-cup-2019'), { round: 1, startWallMs: Date.now() + 1000 }, m), simulate: { boards: 5, seed: 'cairns-cup-2019/1', hardware: 'dgt', late: demoLateArrivals } });
  await new Promise((r) => setTimeout(r, 60000));
  for (const v of c.hall.views()) console.log(JSON.stringify({ id: v.id, st: v.status, p: v.presses, m: v.moves, period: v.period }));
  for (const a of c.hall.attention()) console.log('ATT', a.board, a.code, a.message);
  await c.stop();
}, 120000);
