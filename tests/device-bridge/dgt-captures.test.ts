// Real byte streams from a DGT board with a clock (arnsholt/dgtdriver test resources, AGPL-3.0; read
// tests/fixtures/oracles): every message must decode to its recorded JSON line, whole, per
// recorded chunk and byte by byte, and the field updates must replay to the recorded games.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { DgtDecoder, PositionTracker, type ClockSideReading, type DecodeOutput, type PositionEvent } from '../../device-bridge/internal.ts';
import { createManualScheduler } from '../../simulators/index.ts';

const dir = resolve(import.meta.dirname, '../fixtures/oracles/dgt/arnsholt_dgtdriver');
const captures = ['1', '2', 'johan'] as const;

const chunks = (name: string): Buffer[] =>
  readFileSync(resolve(dir, `${name}.inbytes`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => Buffer.from(line.trim(), 'base64'));
const expected = (name: string): unknown[] =>
  readFileSync(resolve(dir, `${name}.json`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as unknown);

const side = (s: ClockSideReading) => {
  const total = s.ms / 1000;
  return {
    hours: Math.floor(total / 3600),
    minutes: Math.floor(total / 60) % 60,
    seconds: total % 60,
    final_flag: s.finalFlag,
    flag: s.flag,
    time_per_move: s.timePerMove,
  };
};

/** Our decode in the capture's JSON vocabulary (arnsholt names D3 "left_turn", D4 "right_turn"). */
function asRecorded(m: DecodeOutput): unknown {
  switch (m.type) {
    case 'boardDump':
      return { board: m.squares };
    case 'fieldUpdate':
      return { piece: m.piece, field: m.field };
    case 'clock':
      return {
        left_clock: side(m.left),
        right_clock: side(m.right),
        clock_running: m.running,
        right_high: m.leverHigh === 'right',
        battery_indicator: m.batteryLow,
        left_turn: m.turnBits.d3,
        right_turn: m.turnBits.d4,
        no_clock: false,
      };
    default:
      return m;
  }
}

function decodeAll(parts: readonly ArrayLike<number>[]): DecodeOutput[] {
  const decoder = new DgtDecoder();
  return parts.flatMap((part) => decoder.push(part));
}

describe.each(captures)('capture %s', (name) => {
  const recorded = chunks(name);
  const json = expected(name);

  it('decodes every message to its recorded JSON line', () => {
    const messages = decodeAll(recorded);
    expect(messages).toHaveLength(json.length);
    expect(messages.map(asRecorded)).toEqual(json);
  });

  it('decodes the same messages whole, per chunk and byte by byte', () => {
    const whole = Buffer.concat(recorded);
    const perChunk = decodeAll(recorded);
    expect(decodeAll([whole])).toEqual(perChunk);
    expect(decodeAll([...whole].map((b) => [b]))).toEqual(perChunk);
  });

  it('replays the field updates to the recorded game', () => {
    const scheduler = createManualScheduler();
    const events: PositionEvent[] = [];
    const tracker = new PositionTracker({ scheduler, stableMs: 400, onEvent: (e) => events.push(e) });
    // The capture has no timestamps; clock messages come about once a second, so each one is a second.
    // A change of the running side is a press by the side that was running (White sits on the left
    // of a normally oriented board).
    let running: 'left' | 'right' | 'none' = 'none';
    for (const m of decodeAll(recorded)) {
      if (m.type === 'boardDump') tracker.boardDump(m.squares);
      else if (m.type === 'fieldUpdate') tracker.fieldUpdate(m.square, m.piece);
      else if (m.type === 'clock') {
        scheduler.advanceBy(1000);
        if (running !== 'none' && m.runningSide !== 'none' && m.runningSide !== running) {
          const whiteSide = tracker.boardOrientation === 'rotated' ? 'right' : 'left';
          tracker.clockPressed(running === whiteSide ? 'white' : 'black');
        }
        if (m.runningSide !== 'none') running = m.runningSide;
      }
    }
    scheduler.advanceBy(1000);
    // The game as read: a takeback (a move replaced before the next one) drops the plies it took back.
    const moves: Extract<PositionEvent, { type: 'move' }>[] = [];
    for (const e of events) {
      if (e.type === 'move') moves.push(e);
      if (e.type === 'takeback') moves.splice(moves.length - e.plies, e.plies);
    }
    expect(moves.at(-1)?.fen.split(' ')[0]).toBe(tracker.fen.split(' ')[0]);
    const game = new Chess();
    for (const move of recordedGame(name)) game.move(move);
    expect(moves.map((m) => m.san)).toEqual(game.history());
    expect(moves.at(-1)?.fen).toBe(game.fen());
    expect(events.filter((e) => e.type === 'ambiguous' || e.type === 'unrecognised')).toEqual([]);
    expect(events.find((e) => e.type === 'orientation')).toMatchObject({ orientation: name === '2' ? 'rotated' : 'normal' });
    if (name === 'johan') {
      // The game ends 1-0 and the players put both kings on light centre squares (d5, e4).
      expect(events.at(-1)).toMatchObject({ type: 'resultSignal', result: '1-0' });
    }
  });
});

function recordedGame(name: string): string[] {
  if (name === 'johan') {
    const pgn = readFileSync(resolve(dir, 'johan.pgn'), 'utf8');
    const chess = new Chess();
    chess.loadPgn(pgn);
    return chess.history();
  }
  const uci = readFileSync(resolve(dir, `${name}.uci`), 'utf8')
    .split(/\s+/)
    .filter((t) => /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(t));
  const chess = new Chess();
  return uci.map((u) => chess.move({ from: u.slice(0, 2), to: u.slice(2, 4), ...(u[4] ? { promotion: u[4] } : {}) }).san);
}
