// The simulated arbiter of an event console (`--auto-publish`, `--simulate-event`): it does what the
// chief arbiter does between rounds, through the same commands and the same journal: pairs each
// section's next round as soon as it may, publishes the draft as it is, starts the clocks, and (with
// `confirm`) confirms every result the clocks gave; with `playoff` it starts the playoff, its clocks,
// and makes the ruling the regulations leave to the chief arbiter. It acts a turn of the event loop after a change,
// never inside one, so every step is an ordinary journaled command.
import type { CommandOutcome, PlayingHall } from '../hall/index.ts';
import type { TournamentCommand } from '../contract/index.ts';
import type { TournamentDesk } from '../desk/index.ts';

export interface AutopilotOptions {
  /** Confirm every clock result of a finished round (a simulated event). */
  readonly confirm: boolean;
  /** Start each seated round's clocks. */
  readonly start: boolean;
  /** Pair and publish each next round (without it, only the clocks are started). */
  readonly publish: boolean;
  /** Start the playoff when the last round leaves a tie (a simulated event). */
  readonly playoff: boolean;
  /** How a desk command is carried out (default: by the desk at once; on the bus, through the stream). */
  readonly deskCommand?: (desk: TournamentDesk, command: TournamentCommand, by: string) => Promise<CommandOutcome>;
  /** Told about every refusal that stops the autopilot's progress (printed by `zeitnot serve`). */
  readonly warn?: (message: string) => void;
}

const BY = 'simulated arbiter';

export function startAutopilot(hall: PlayingHall, desks: ReadonlyMap<string, TournamentDesk>, options: AutopilotOptions): { stop(): void } {
  let queued = false;
  let stopped = false;
  /** A desk command on its way through the bus: one step at a time; a change meanwhile is looked at after it. */
  let inFlight = false;
  let missed = false;
  // A Swiss round is paired as the arbiter's is: off the event loop (the desk's pairer).
  const act = (desk: TournamentDesk, command: TournamentCommand): boolean | Promise<boolean> =>
    options.deskCommand
      ? options.deskCommand(desk, command, BY).then((o) => o.ok)
      : command.type === 'pairNextRound'
        ? desk.pairNextRound(command, BY).then((o) => o.ok)
        : desk.command(command, BY).ok;
  const step = (desk: TournamentDesk): boolean | Promise<boolean> => {
    const section = desk.section.id;
    const view = desk.view('arbiter');
    const seated = hall.seated.get(desk.hallSection);
    if (options.confirm && seated && view.rounds.some((r) => r.round === desk.liveRound && r.games.some((g) => g.source === 'clock'))) {
      return act(desk, { type: 'confirmRound', section });
    }
    if (view.draft && options.publish) {
      return act(desk, { type: 'publishRound', section });
    }
    if (options.publish && view.nextRound?.possible && desk.liveRoundClosed) return act(desk, { type: 'pairNextRound', section });
    if (options.start && seated && hall.startOf(desk.hallSection) === undefined && desk.liveRound === seated.round) {
      const started = hall.command({ type: 'startAll', section: desk.hallSection }, BY);
      if (!started.ok) options.warn?.(`section ${section}: not started: ${started.reason}`);
      return started.ok;
    }
    if (options.playoff && view.playoffPossible.possible) return act(desk, { type: 'startPlayoff', section });
    // A sitting of playoff games on the boards: its clocks start like a round's.
    const playoff = hall.seated.get(desk.playoffSection);
    if (options.start && playoff && hall.startOf(desk.playoffSection) === undefined) {
      const started = hall.command({ type: 'startAll', section: desk.playoffSection }, BY);
      if (!started.ok) options.warn?.(`section ${section}: playoff not started: ${started.reason}`);
      return started.ok;
    }
    const state = desk.playoff;
    if (options.playoff && state?.arbiterDecision && state.winner === undefined) {
      // Left to the chief arbiter (more tied than the ladder covers, or its stages exhausted): a
      // simulated event must still end, so the simulated arbiter names the best of those still in by
      // the main tie-breaks (the playoff keeps them in that order).
      const winner = state.remaining[0]!;
      return act(desk, {
        type: 'decidePlayoff',
        section,
        winner,
        reason: `simulated ruling: the best of those still in by the tie-breaks (${desk.section.tiebreaks.join(', ')})`,
      });
    }
    return false;
  };
  const run = (): void => {
    queued = false;
    if (stopped) return;
    if (inFlight) {
      missed = true;
      return;
    }
    let moved = false;
    const waiting: Promise<boolean>[] = [];
    for (const desk of desks.values()) {
      try {
        const done = step(desk);
        if (typeof done === 'boolean') moved ||= done;
        else waiting.push(done);
      } catch (err) {
        options.warn?.(`section ${desk.section.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (waiting.length > 0) {
      inFlight = true;
      missed = false;
      void Promise.all(waiting).then(
        (done) => {
          inFlight = false;
          if (moved || missed || done.some(Boolean)) schedule();
        },
        (err: unknown) => {
          inFlight = false;
          options.warn?.(String(err));
          schedule();
        },
      );
      return;
    }
    if (moved) schedule();
  };
  const schedule = (): void => {
    if (queued || stopped) return;
    queued = true;
    setImmediate(run);
  };
  // A step builds each section's arbiter view: it follows the hall only where a step can follow (a
  // round seated, a game's end, an alert), not every press (a console on the bus of 1,000 boards
  // hears hundreds a second); the desks tell it of everything else.
  const unsubscribe = [
    hall.subscribe((change) => (change.round || change.key || change.attention) && schedule()),
    ...[...desks.values()].map((d) => d.subscribe(schedule)),
  ];
  schedule();
  return {
    stop() {
      stopped = true;
      for (const u of unsubscribe) u();
    },
  };
}
