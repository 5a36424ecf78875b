// The `npm start` round: Cairns Cup 2019, round 1, five boards, accelerated, with two late arrivals
// (under the event's 30-minute default time) so a visitor sees the attention queue at work.
import type { LateArrival } from './simulation.ts';

export const demoLateArrivals: readonly LateArrival[] = [
  { board: '3', side: 'white', afterMs: 9 * 60_000 },
  { board: '5', side: 'black', afterMs: 17 * 60_000 },
];
