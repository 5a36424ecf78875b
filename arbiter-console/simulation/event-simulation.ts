// Virtual players for an event console: each time a section's round is seated on the hall's boards,
// the previous round's players leave and a new simulation (simulation.ts) plays the new round's boards.
import type { PlayingHall } from '../hall/index.ts';
import type { Round } from '../contract/index.ts';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import { simulateRound, type LateArrival, type Simulation } from './simulation.ts';

/**
 * The players' ratings for the games' plans: FIDE, else national, as entered, by section and pairing
 * number; a playoff's hall section (`<section>/playoff`) is its section's.
 */
export function entryRatings(event: ZeitnotEvent): (section: string, player: number) => number | undefined {
  const bySection = new Map(event.sections.map((s) => [s.id, new Map(s.players.map((p) => [p.id, p.fideRating ?? p.nationalRating]))]));
  return (section, player) => bySection.get(section.split('/')[0] ?? section)?.get(player);
}

export interface EventSimulationOptions {
  readonly seed: string;
  /** How many boards to simulate (the first ones of the hall without a device), or every one. */
  readonly boards: number | 'all';
  readonly hardware: 'dgt' | 'none';
  /** Boards with a real device: never simulated. */
  readonly withDevice: ReadonlySet<string>;
  /** Late arrivals of the first round seated (the demo's). */
  readonly late?: readonly LateArrival[];
  /** A player's rating by section and pairing number (entryRatings), for the games' plans. */
  readonly ratingOf?: (section: string, player: number) => number | undefined;
  /** Simulated DGT boards connect once this has resolved (the console answers); default at once. */
  readonly connectAfter?: Promise<void>;
}

export function simulateEvent(hall: PlayingHall, options: EventSimulationOptions): { readonly ready: Promise<void>; stop(): Promise<void> } {
  const running = new Map<string, { round: Round; simulation: Promise<Simulation> }>();
  let first = true;
  let stopped = false;
  let budget = options.boards === 'all' ? Infinity : options.boards;
  const follow = (): void => {
    if (stopped) return;
    for (const [section, round] of hall.seated) {
      const current = running.get(section);
      if (current?.round === round) continue;
      void current?.simulation.then((s) => s.stop());
      if (current) budget += current.round.boards.filter((b) => !options.withDevice.has(b.id)).length;
      // A round's boards that now hold another game (its section's playoff) are not played again.
      const boards = round.boards
        .map((b) => b.id)
        .filter((id) => !options.withDevice.has(id) && hall.boards.get(id)?.round === round)
        .slice(0, Math.max(0, Math.min(budget, round.boards.length)));
      budget -= boards.length;
      const late = first ? options.late : undefined;
      first = false;
      running.set(section, {
        round,
        simulation: simulateRound(hall, {
          seed: `${options.seed}/${section}/${round.round}`,
          boards,
          hardware: options.hardware,
          ...(late ? { late } : {}),
          ...(options.ratingOf ? { ratingOf: options.ratingOf } : {}),
          ...(options.connectAfter ? { connectAfter: options.connectAfter } : {}),
        }),
      });
    }
  };
  const unsubscribe = hall.subscribe((change) => {
    if (change.round) follow();
  });
  follow();
  return {
    /** The simulations of the rounds seated at start are up (a restarted console: their games go on). */
    ready: Promise.all([...running.values()].map((r) => r.simulation)).then(() => undefined),
    async stop() {
      stopped = true;
      unsubscribe();
      await Promise.all([...running.values()].map(async (r) => (await r.simulation).stop()));
    },
  };
}
