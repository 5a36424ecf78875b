import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { demoLateArrivals, roundFromEvent, startConsole } from '../../arbiter-console/index.ts';
import { presetEvent } from '../../tournament/index.ts';
it('dbg', async () => {
  process.on('uncaughtException', (e) => console.log('UNCAUGHT', e.message));
  const c = await startConsole({ dataDir: mkdtempSync(join(tmpdir(), 'zd-')), port: 0, noPage: true, scale: 40, autoStart: true, round: (m) => roundFromEvent(presetEvent('cairns-cup-2019'), { round: 1, startWallMs: Date.now() + 1000 }, m), simulate: { boards: 5, seed: 'cairns-cup-2019/1', hardware: 'dgt', late: demoLateArrivals } });
  await new Promise((r) => setTimeout(r, 25000));
  for (const e of c.journal.entries()) { const r = e.record; if (r.kind === 'clock' && ['press', 'boardMove', 'arrive', 'start'].includes(r.event.type) && (r.board === '1' || r.board === '3')) console.log(r.board, r.event.type, 'side' in r.event ? r.event.side : '', 'san' in r.event ? r.event.san : '', r.event.at); if (r.kind === 'note') console.log(r.board, JSON.stringify(r.note)); }
  await c.stop();
}, 60000);
