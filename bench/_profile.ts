import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { realClock, startConsole } from '../arbiter-console/index.ts';
import { hallEventForTest } from './arbiter-console.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'zeitnot-prof-'));
const source = realClock(0);
const event = hallEventForTest(1000);
const run = await startConsole({ dataDir, port: 0, noPage: true, source, event, firstRound: true });
const desk = run.desk!;
const hall = run.hall;
// A timer probe: the longest gap between turns.
let last = performance.now(); let worst = 0; let worstAt = '';
let label = 'setup';
const probe = setInterval(() => { const now = performance.now(); if (now - last - 1 > worst) { worst = now - last - 1; worstAt = label; } last = now; }, 1);
const mark = (l: string) => { console.log(`${l}: worst so far ${worst.toFixed(0)} ms at ${worstAt}`); worst = 0; label = l; };
hall.command({ type: 'arriveAll' }, 'p');
hall.command({ type: 'startAll' }, 'p');
await new Promise((r) => setTimeout(r, 500));
mark('results');
let i = 0;
for (const id of hall.boards.keys()) {
  hall.command({ type: 'result', board: id, result: (['1-0', '0-1'] as const)[i++ % 2]!, termination: 'normal' }, 'p');
  if (i % 50 === 0) await new Promise((r) => setImmediate(r));
}
await new Promise((r) => setTimeout(r, 500));
mark('confirm');
let t = performance.now();
function MARK_CONFIRM() { return desk.command({ type: 'confirmRound' }, 'p'); }
console.log(MARK_CONFIRM().ok, (performance.now() - t).toFixed(0));
await new Promise((r) => setTimeout(r, 500));
mark('pair');
t = performance.now();
const o = await desk.pairNextRound({ type: 'pairNextRound' }, 'p');
console.log(o.ok, (performance.now() - t).toFixed(0));
await new Promise((r) => setTimeout(r, 500));
mark('publish');
t = performance.now();
function MARK_PUBLISH() { return desk.command({ type: 'publishRound' }, 'p'); }
console.log(MARK_PUBLISH().ok, (performance.now() - t).toFixed(0));
await new Promise((r) => setTimeout(r, 500));
mark('start');
t = performance.now();
console.log(hall.command({ type: 'startAll' }, 'p').ok, (performance.now() - t).toFixed(0));
await new Promise((r) => setTimeout(r, 500));
mark('end');
clearInterval(probe);
await run.stop();
