// Clock-engine targets (issue 2): presses per second through the XState actor and through the plain fold,
// measured side by side in one run on the same press sequence, and the memory of an idle game actor.
import { applyClockEvent, createGameClock, gameConfig, initialGameState, timeControlPresets, type ClockEvent, type GameState } from '../clock-engine/index.ts';
import { setFlagsFromString } from 'node:v8';
import { assign, createActor, setup } from 'xstate';
import { runInNewContext } from 'node:vm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import type { BenchRow } from './table.ts';

const config = gameConfig(timeControlPresets['cairns-cup']!.timeControl, {
  defaultTimeMs: 30 * 60_000,
  lawsEdition: '2018',
  drawOfferMinMove: 30,
});

const opening: ClockEvent[] = [
  { type: 'arrive', side: 'white', at: 0, by: { kind: 'player', side: 'white' } },
  { type: 'arrive', side: 'black', at: 0, by: { kind: 'player', side: 'black' } },
  { type: 'start', at: 0, by: { kind: 'system' } },
];

/** A long game's presses: 1 ms apart (the clocks gain 30 s a move, so nobody ever flags). */
function presses(count: number): ClockEvent[] {
  const out: ClockEvent[] = [];
  for (let i = 0; i < count; i++) {
    const side = i % 2 === 0 ? 'white' : 'black';
    out.push({ type: 'press', side, at: i + 1, by: { kind: 'device', deviceId: 'bench' } });
  }
  return out;
}

function foldRate(events: readonly ClockEvent[]): { rate: number; state: GameState } {
  let state = opening.reduce((s, e) => applyClockEvent(config, s, e).state, initialGameState(config));
  const t0 = process.hrtime.bigint();
  for (const e of events) state = applyClockEvent(config, state, e).state;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rate: events.length / seconds, state };
}

/**
 * Real games' moves as a DGT board or a hall host reports them, each with the position after it: the
 * first 40 games chess.js reads of Tata Steel 2017 (the clock oracles' PGN in tests/fixtures).
 */
function boardMoveGames(): ClockEvent[][] {
  const pgn = readFileSync(join(import.meta.dirname, '..', 'tests', 'fixtures', 'oracles', 'clocks', 'tata_steel_2017_masters.pgn'), 'utf8');
  const games: ClockEvent[][] = [];
  for (const text of pgn.split(/\n\n(?=\[Event )/)) {
    const game = new Chess();
    try {
      game.loadPgn(text);
    } catch {
      continue; // a game chess.js's PGN reader refuses is left out: what is measured is the engine
    }
    const board = new Chess();
    games.push(
      game.history().map((san, i): ClockEvent => {
        board.move(san);
        return { type: 'boardMove', side: i % 2 === 0 ? 'white' : 'black', san, fen: board.fen(), at: i + 1, by: { kind: 'device', deviceId: 'bench' } };
      }),
    );
  }
  return games.slice(0, 40);
}

/** Board moves folded per second: the clock engine reading each position for the end of the game. */
function boardMoveRate(games: readonly (readonly ClockEvent[])[]): number {
  const start = opening.reduce((s, e) => applyClockEvent(config, s, e).state, initialGameState(config));
  let plies = 0;
  const t0 = process.hrtime.bigint();
  for (let round = 0; round < 5; round++)
    for (const game of games) {
      let state = start;
      for (const e of game) state = applyClockEvent(config, state, e).state;
      plies += game.length;
    }
  return plies / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/** The production set-up: real timers (re-aimed at every press), timestamps from an injected source. */
function actorRate(events: readonly ClockEvent[]): { rate: number; state: GameState } {
  let now = 0;
  const actor = createGameClock(config, { now: () => now });
  actor.start();
  for (const e of opening) actor.send(e);
  const t0 = process.hrtime.bigint();
  for (const e of events) {
    now = e.at;
    actor.send(e);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const state = actor.getSnapshot().context.game;
  actor.stop();
  return { rate: events.length / seconds, state };
}

/** A full collection, so heap figures mean what they say (works without node --expose-gc). */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * XState's own cost per event, for scale: a machine whose only work is one `assign` of a counter.
 * The game-clock actor cannot be faster than this, whatever the fold costs.
 */
function xstateFloorRate(count: number): number {
  const floor = setup({ types: { context: {} as { n: number }, events: {} as { type: 'press' } } }).createMachine({
    context: { n: 0 },
    on: { press: { actions: assign(({ context }) => ({ n: context.n + 1 })) } },
  });
  const actor = createActor(floor);
  actor.start();
  const event = { type: 'press' } as const;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) actor.send(event);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  actor.stop();
  return count / seconds;
}

/**
 * Heap per actor, after a warm-up batch (first-use caches are not per game): `running` ones have started
 * clocks and a pending deadline timer. The boards of a round share their GameConfig, as in the console.
 */
function bytesPerIdleActor(count: number, running: boolean): number {
  const gc = collector();
  const now = () => 0;
  const make = () => {
    const actor = createGameClock(config, { now });
    actor.start();
    if (running) for (const e of opening) actor.send(e);
    return actor;
  };
  for (let i = 0; i < count / 4; i++) make().stop();
  gc();
  const before = process.memoryUsage().heapUsed;
  const actors = [];
  for (let i = 0; i < count; i++) actors.push(make());
  gc();
  const after = process.memoryUsage().heapUsed;
  const bytes = (after - before) / count;
  for (const a of actors) a.stop();
  return bytes;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export async function run(): Promise<BenchRow[]> {
  const events = presses(200_000);
  // Warm both paths up, then measure them alternately and keep each one's best of three.
  foldRate(events.slice(0, 20_000));
  actorRate(events.slice(0, 20_000));
  xstateFloorRate(20_000);
  let fold = 0;
  let actor = 0;
  let floor = 0;
  let same = true;
  for (let round = 0; round < 3; round++) {
    const f = foldRate(events);
    const a = actorRate(events);
    floor = Math.max(floor, xstateFloorRate(events.length));
    fold = Math.max(fold, f.rate);
    actor = Math.max(actor, a.rate);
    same &&= JSON.stringify(f.state) === JSON.stringify(a.state);
  }
  const ratio = fold / actor;
  const games = boardMoveGames();
  boardMoveRate(games);
  const moves = Math.max(...[0, 1, 2].map(() => boardMoveRate(games)));
  const waiting = bytesPerIdleActor(2_000, false);
  const running = bytesPerIdleActor(2_000, true);
  return [
    { part: 'clock-engine', measure: 'presses/s, plain fold (applyClockEvent)', value: fmt(fold) },
    { part: 'clock-engine', measure: 'presses/s, XState actor (real timers)', value: fmt(actor), target: '>= 200,000', ok: actor >= 200_000 },
    { part: 'clock-engine', measure: 'events/s, XState floor (one assign, no logic)', value: fmt(floor) },
    { part: 'clock-engine', measure: 'board moves/s, plain fold (real games, the position after each read for the end of the game)', value: fmt(moves) },
    { part: 'clock-engine', measure: 'fold / actor speed ratio', value: ratio.toFixed(2), target: '<= 10', ok: ratio <= 10 },
    { part: 'clock-engine', measure: 'actor and fold end in the same state', value: same ? 'yes' : 'no', target: 'yes', ok: same },
    { part: 'clock-engine', measure: 'bytes per idle game actor, waiting for the start', value: fmt(waiting), target: '< 5,120', ok: waiting < 5120 },
    { part: 'clock-engine', measure: 'bytes per idle game actor, clock running', value: fmt(running), target: '< 5,120', ok: running < 5120 },
  ];
}
