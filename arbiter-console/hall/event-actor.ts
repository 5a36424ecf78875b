// The running event as an XState actor system: the event actor (the root, systemId 'event') spawns one
// section actor per section ('section:<id>'), which spawns a round actor per round ('round:<id>:<n>',
// round-actor.ts) when the round is drafted or seated, and each round spawns its boards' game-clock
// actors. Every timer in the system runs on the one clock given to createActor. The actors follow the
// journal: their owner (the hall) journals first and then tells them; what they find with their timers
// they report (a round's `startDue`, a game's `deadline`) for the owner to journal.
import { enqueueActions, setup, type ActorRefFrom, type AnyActorRef } from 'xstate';
import { roundLogic, type RoundActorEvent, type RoundActorInput, type RoundPhase } from './round-actor.ts';

export const roundSystemId = (section: string, round: number): string => `round:${section}:${round}`;
export const sectionSystemId = (section: string): string => `section:${section}`;
export const gameSystemId = (section: string, round: number, board: string): string => `game:${section}:${round}:${board}`;

/** What the hall tells a section: a round appears (drafted or seated), or one of its rounds moves on. */
export type SectionActorEvent =
  { readonly type: 'open'; readonly input: RoundActorInput } | { readonly type: 'toRound'; readonly round: number; readonly event: RoundActorEvent };

interface SectionContext {
  readonly section: string;
  readonly rounds: readonly number[];
}

export function sectionLogic(now: () => number) {
  return setup({
    types: { context: {} as SectionContext, input: {} as { section: string }, events: {} as SectionActorEvent },
    actors: { round: roundLogic(now) },
  }).createMachine({
    id: 'section',
    context: ({ input }) => ({ section: input.section, rounds: [] }),
    on: {
      open: {
        actions: enqueueActions(({ context, event, enqueue }) => {
          const id = roundSystemId(context.section, event.input.round);
          if (context.rounds.includes(event.input.round)) return;
          enqueue.spawnChild('round', { id, systemId: id, input: event.input });
          enqueue.assign({ rounds: [...context.rounds, event.input.round] });
        }),
      },
      toRound: {
        actions: enqueueActions(({ context, event, enqueue }) => {
          if (!context.rounds.includes(event.round)) return;
          enqueue.sendTo(roundSystemId(context.section, event.round), event.event);
        }),
      },
    },
  });
}

export function eventLogic(now: () => number) {
  return setup({
    types: {
      context: {} as { sections: readonly string[] },
      input: {} as { sections: readonly string[] },
      events: {} as { type: 'addSection'; section: string },
    },
    actors: { section: sectionLogic(now) },
  }).createMachine({
    id: 'event',
    context: ({ input }) => ({ sections: input.sections }),
    entry: enqueueActions(({ context, enqueue }) => {
      for (const section of context.sections)
        enqueue.spawnChild('section', { id: sectionSystemId(section), systemId: sectionSystemId(section), input: { section } });
    }),
    on: {
      // A hall section seated for the first time while the event runs (a section's playoff boards).
      addSection: {
        actions: enqueueActions(({ context, event, enqueue }) => {
          if (context.sections.includes(event.section)) return;
          enqueue.spawnChild('section', { id: sectionSystemId(event.section), systemId: sectionSystemId(event.section), input: { section: event.section } });
          enqueue.assign({ sections: [...context.sections, event.section] });
        }),
      },
    },
  });
}

export type EventActorRef = ActorRefFrom<ReturnType<typeof eventLogic>>;

/** The phase of a round actor, read from the system (undefined: no such round yet). */
export function roundPhase(system: { get(id: string): AnyActorRef | undefined }, section: string, round: number): RoundPhase | undefined {
  return (system.get(roundSystemId(section, round))?.getSnapshot() as { context?: { phase?: RoundPhase } } | undefined)?.context?.phase;
}
