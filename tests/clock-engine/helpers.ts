// Small builders for clock-engine tests: a config, and events in the arbiter's words.
import {
  applyClockEvent,
  initialGameState,
  gameConfig as buildGameConfig,
  type ClockEvent,
  type GameConfig,
  type GameState,
  type Side,
} from '../../clock-engine/index.ts';

export const min = 60_000;
export const sec = 1000;

export function gameConfig(tc: string, overrides: Partial<GameConfig> = {}): GameConfig {
  // These tests were written for a 2018-Laws standard game with 30 minutes' default time.
  return buildGameConfig(tc, { defaultTimeMs: 30 * min, lawsEdition: '2018', category: 'standard', ...overrides });
}

const arbiter = { kind: 'arbiter', name: 'IA Test' } as const;
export const ev = {
  start: (at: number): ClockEvent => ({ type: 'start', at, by: arbiter }),
  arrive: (side: Side, at: number): ClockEvent => ({ type: 'arrive', side, at, by: { kind: 'player', side } }),
  press: (side: Side, at: number): ClockEvent => ({ type: 'press', side, at, by: { kind: 'device', deviceId: 'clock-1' } }),
  pause: (at: number, reason = 'arbiter called'): ClockEvent => ({ type: 'pause', at, by: arbiter, reason }),
  resume: (at: number): ClockEvent => ({ type: 'resume', at, by: arbiter }),
  setTime: (side: Side, ms: number, at: number): ClockEvent => ({ type: 'setTime', side, ms, at, by: arbiter, reason: 'correction' }),
  addTime: (side: Side, ms: number, at: number): ClockEvent => ({ type: 'addTime', side, ms, at, by: arbiter, reason: 'disturbance' }),
  penalty: (offender: Side, offence: 'illegal-move' | 'false-claim', at: number): ClockEvent => ({
    type: 'penalty',
    offender,
    offence,
    at,
    by: arbiter,
    reason: offence,
  }),
  drawOffer: (side: Side, at: number): ClockEvent => ({ type: 'drawOffer', side, at, by: { kind: 'player', side } }),
  drawAccept: (side: Side, at: number): ClockEvent => ({ type: 'drawAccept', side, at, by: { kind: 'player', side } }),
  boardMove: (side: Side, san: string, at: number, fen?: string): ClockEvent =>
    fen === undefined
      ? { type: 'boardMove', side, san, at, by: { kind: 'device', deviceId: 'board-1' } }
      : { type: 'boardMove', side, san, fen, at, by: { kind: 'device', deviceId: 'board-1' } },
  setMoveCounter: (counter: 'presses' | 'moves', side: Side, moves: number, at: number): ClockEvent => ({
    type: 'setMoveCounter',
    counter,
    side,
    moves,
    at,
    by: arbiter,
    reason: 'scoresheet check',
  }),
  quickplayClaim: (side: Side, at: number, request?: 'draw' | 'increment'): ClockEvent => ({
    type: 'quickplayClaim',
    side,
    at,
    by: { kind: 'player', side },
    ...(request ? { request } : {}),
  }),
  quickplayDecision: (decision: 'draw' | 'postpone' | 'reject' | 'increment', at: number, extraTime?: boolean): ClockEvent => ({
    type: 'quickplayDecision',
    decision,
    at,
    by: arbiter,
    reason: 'Art. 10.2',
    ...(extraTime !== undefined ? { extraTime } : {}),
  }),
};

/** Folds events, returning the final state and every engine-generated event. */
export function fold(config: GameConfig, events: readonly ClockEvent[], from?: GameState): { state: GameState; emitted: ClockEvent[] } {
  let state = from ?? initialGameState(config);
  const emitted: ClockEvent[] = [];
  for (const e of events) {
    const step = applyClockEvent(config, state, e);
    emitted.push(...step.emitted);
    state = step.state;
  }
  return { state, emitted };
}

/** Both players present at 0, clock started at 0. */
export const opening = (at = 0): ClockEvent[] => [ev.arrive('white', at), ev.arrive('black', at), ev.start(at)];

/**
 * Presses alternating from White at the given per-ply thinking times, starting at `start`;
 * returns the events and the instant of the last press.
 */
export function plies(thinks: readonly number[], start = 0, first: Side = 'white'): { events: ClockEvent[]; end: number } {
  const events: ClockEvent[] = [];
  let at = start;
  let side = first;
  for (const t of thinks) {
    at += t;
    events.push(ev.press(side, at));
    side = side === 'white' ? 'black' : 'white';
  }
  return { events, end: at };
}
