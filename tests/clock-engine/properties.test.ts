// Property tests (fast-check): the clock's arithmetic, the fold's determinism, and no negative time.
import fc from 'fast-check';
import { SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  applyClockEvent,
  createGameClock,
  initialGameState,
  nextDeadline,
  remainingAt,
  replayGame,
  type ClockEvent,
  type GameConfig,
  type Side,
} from '../../clock-engine/internal.ts';
import { ev, fold, gameConfig, opening } from './helpers.ts';

const fischer = fc
  .record({
    baseS: fc.integer({ min: 60, max: 5400 }),
    incS: fc.integer({ min: 0, max: 60 }),
    quota: fc.integer({ min: 1, max: 40 }),
    secondS: fc.integer({ min: 0, max: 1800 }),
    credit: fc.constantFrom('before-move' as const, 'after-press' as const),
  })
  // A second period of 0 with no increment adds nothing: the parser refuses it (time-control-edges.test.ts).
  .filter((c) => c.secondS > 0 || c.incS > 0);

describe('Fischer arithmetic', () => {
  it('remaining = base + credited increments + credited periods - thinking time, for any presses', () => {
    fc.assert(
      fc.property(fischer, fc.array(fc.integer({ min: 0, max: 90_000 }), { maxLength: 120 }), (c, thinks) => {
        const base = gameConfig(`${c.quota}/${c.baseS}+${c.incS}:${c.secondS}+${c.incS}`);
        const config: GameConfig = { ...base, timeControl: { ...base.timeControl, incrementCredit: c.credit } };
        let state = fold(config, opening()).state;
        let at = 0;
        const spent = { white: 0, black: 0 };
        for (const think of thinks) {
          const side = state.toMove;
          at += think;
          const step = applyClockEvent(config, state, ev.press(side, at));
          state = step.state;
          if (state.status === 'finished') {
            // The flag fell: at exactly the instant the clock reached zero, never later.
            expect(state.firstFlag?.at).toBeLessThanOrEqual(at);
            expect(remainingAt(state, at)[side]).toBe(0);
            return;
          }
          spent[side] += think;
        }
        for (const side of ['white', 'black'] as const) {
          const presses = state.presses[side];
          const increments = c.credit === 'before-move' ? presses + 1 : presses;
          const periods = presses >= c.quota ? c.secondS * 1000 : 0;
          expect(state.remainingMs[side]).toBe(c.baseS * 1000 + increments * c.incS * 1000 + periods - spent[side]);
        }
      }),
    );
  });
});

/** Random event logs in time order: presses, pauses, corrections, penalties, board moves, offers. */
const side = fc.constantFrom<Side>('white', 'black');
const action = fc.oneof(
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('press' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resume' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('addTime' as const), side, ms: fc.integer({ min: -60_000, max: 120_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('penalty' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drawOffer' as const), side }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('counter' as const), side, moves: fc.integer({ min: 0, max: 50 }) }) },
);
const logArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 120_000 }), action), { maxLength: 80 });
const controlArb = fc.constantFrom('40/5400+30:1800+30', '300', 'W300-B240+2@61', 'G/5;d5', '300b5', '40/600:300', '180+2');

type Action = { readonly kind: string; readonly side?: Side; readonly ms?: number; readonly moves?: number };

function toEvents(log: readonly (readonly [number, Action])[]): ClockEvent[] {
  const events = [...opening()];
  let at = 0;
  for (const [dt, a] of log) {
    at += dt;
    const s = a.side ?? 'white';
    switch (a.kind) {
      case 'press':
        events.push(ev.press(s, at));
        break;
      case 'pause':
        events.push(ev.pause(at));
        break;
      case 'resume':
        events.push(ev.resume(at));
        break;
      case 'addTime':
        events.push(ev.addTime(s, a.ms ?? 0, at));
        break;
      case 'penalty':
        events.push(ev.penalty(s, 'false-claim', at));
        break;
      case 'drawOffer':
        events.push(ev.drawOffer(s, at));
        break;
      default:
        events.push(ev.setMoveCounter('presses', s, a.moves ?? 0, at));
    }
  }
  return events;
}

describe('the state is a pure fold of the event log', () => {
  it('replaying the log, with or without the generated events, gives the identical state', () => {
    fc.assert(
      fc.property(controlArb, logArb, (tc, log) => {
        const config = gameConfig(tc, { lawsEdition: '2009' });
        const events = toEvents(log);
        const { state, emitted } = fold(config, events);
        expect(replayGame(config, events)).toEqual(state);
        // A journal holds each generated event just before the event that revealed it.
        const journal: ClockEvent[] = [];
        let s = initialGameState(config);
        for (const e of events) {
          const step = applyClockEvent(config, s, e);
          journal.push(...step.emitted, e);
          s = step.state;
        }
        expect(journal.length).toBe(events.length + emitted.length);
        expect(replayGame(config, journal)).toEqual(state);
      }),
    );
  });

  it('the XState actor on a simulated clock ends in the state its journal replays to', () => {
    fc.assert(
      fc.property(controlArb, logArb, (tc, log) => {
        const config = gameConfig(tc);
        const events = toEvents(log);
        const clock = new SimulatedClock();
        const actor = createGameClock(config, { clock });
        const journal: ClockEvent[] = [];
        actor.on('generated', ({ event }) => journal.push(event));
        actor.start();
        for (const e of events) {
          while (clock.now() < e.at) clock.increment(Math.min(1000, e.at - clock.now()));
          actor.send(e);
          journal.push(e);
        }
        const game = actor.getSnapshot().context.game;
        actor.stop();
        expect(replayGame(config, journal)).toEqual(game);
        expect(game).toEqual(fold(config, events).state);
      }),
      { numRuns: 60 },
    );
  });
});

describe('remaining time never goes below zero except at a recorded flag', () => {
  it('holds at every instant between events', () => {
    fc.assert(
      fc.property(controlArb, logArb, fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 5 }), (tc, log, probes) => {
        const config = gameConfig(tc);
        let state = initialGameState(config);
        for (const e of toEvents(log)) {
          state = applyClockEvent(config, state, e).state;
          for (const dt of probes) {
            const now = state.asOf + dt;
            const r = remainingAt(state, now);
            expect(r.white).toBeGreaterThanOrEqual(0);
            expect(r.black).toBeGreaterThanOrEqual(0);
            if (state.status === 'running' && r[state.toMove] === 0 && state.flags[state.toMove] === undefined) {
              // Zero on a running clock only from its flag deadline on, which the fold then records, or
              // while the move's delay still runs (the main time waits; e.g. an arbiter took it all away):
              // then the flag falls exactly when the delay ends.
              const d = nextDeadline(config, state);
              expect(d?.kind).toBe('flag');
              if (d!.at > now) {
                const usedByNow = state.move.usedMs + (now - state.asOf);
                expect(d!.at - now).toBe(state.move.startMs + state.move.delayMs - usedByNow);
                continue;
              }
              const after = applyClockEvent(config, state, ev.pause(now)).state;
              expect(after.flags[state.toMove] ?? after.firstFlag?.at).toBeDefined();
            }
          }
        }
      }),
      {
        // Found by this property (seed -544865404): the arbiter takes all of Black's time, then White
        // presses: Black's clock shows zero during his 5 s delay and the flag falls when it ends.
        examples: [
          [
            'G/5;d5',
            [
              [0, { kind: 'press', side: 'white' }],
              [48151, { kind: 'press', side: 'white' }],
              [118749, { kind: 'penalty', side: 'black' }],
              [80825, { kind: 'press', side: 'black' }],
              [0, { kind: 'addTime', side: 'black', ms: -57275 }],
              [0, { kind: 'press', side: 'white' }],
            ],
            [0, 4_999, 5_000],
          ],
        ],
      },
    );
  });
});
