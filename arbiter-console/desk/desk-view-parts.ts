// What the desk's views are made of that the desk knows at once (the rounds' games with their results
// and sources, the draft, what may happen next, the section record): the crosstable, tie-breaks and
// prizes are derived from it by assembleViews (tournament-view-build.ts), in the view worker while
// the console plays. Plain data, built over the desk's face and state.
import { pairingsView } from '../../tournament/index.ts';
import { MAIN } from '../contract/index.ts';
import type { PairedGame, PairedPlayer, RoundPairings, ViewParts } from '../contract/index.ts';
import { key, playerOf, type DeskFace, type DeskState } from './desk-state.ts';
import { draftView, nextRound } from './pairing-step.ts';
import { playoffBoards, playoffPossible } from './playoff-step.ts';
import { regulationsView } from './regulation-step.ts';
import { contradiction, knownResults } from './result-step.ts';

export function deskViewParts(desk: DeskFace, state: DeskState): ViewParts {
  const record = desk.record();
  const results = new Map(knownResults(desk, state).map((r) => [key(r.round, r.result.white, r.result.black), r]));
  const player = (id: number) => playerOf(state, id);
  const rounds: RoundPairings<PairedPlayer>[] = [];
  for (let round = 1; round <= desk.currentRound; round += 1) {
    const pairing = desk.pairingOf(round);
    if (!pairing || (pairing.status === 'table' && ![...results.values()].some((r) => r.round === round))) continue;
    const paired = pairingsView(desk.event, desk.section.id, record, round, pairing);
    const games: PairedGame<PairedPlayer>[] = pairing.games.map((g, i) => {
      const found = results.get(key(round, g.white, g.black));
      const hallBoard = pairing.status === 'live' ? desk.hallBoardOf(round, g.white, g.black) : undefined;
      return {
        board: i + 1,
        ...(hallBoard !== undefined ? { hallBoard } : {}),
        white: player(g.white),
        black: player(g.black),
        result: found?.result.result ?? null,
        source: found?.source ?? null,
        ...(found?.result.termination ? { termination: found.result.termination } : {}),
        ...(hallBoard !== undefined ? contradiction(desk, state, round, g) : {}),
      };
    });
    const requested = state.byes
      .filter((b) => b.round === round)
      .map((b) => ({ ...player(b.player), why: b.kind === 'half' ? 'half-point bye (requested)' : 'zero-point bye (requested)' }));
    rounds.push({
      round,
      status: pairing.status,
      games,
      bye: pairing.bye === null ? null : player(pairing.bye),
      notPaired: [...paired.notPaired, ...requested],
    });
  }
  const draft = draftView(desk, state);
  return {
    event: desk.event.name,
    section: { id: desk.section.id, name: desk.section.name, format: desk.section.format.kind, rounds: desk.totalRounds },
    liveRound: desk.liveRound,
    currentRound: desk.currentRound,
    rounds,
    corrections: [...state.corrections],
    unlinkedBoards: [...desk.hall.boards.values()]
      .filter((b) => (b.round.section ?? MAIN) === desk.hallSection && !desk.hallPairs.has(b.id))
      .map((b) => ({ board: b.id, white: b.info.white, black: b.info.black })),
    nextRound: nextRound(desk, state),
    playoffPossible: playoffPossible(desk, state),
    regulations: regulationsView(desk, state),
    record,
    ...(state.playoff
      ? { playoff: state.playoff, playoffBoards: playoffBoards(desk, state), ...(state.playoffHeld !== undefined ? { playoffHeld: state.playoffHeld } : {}) }
      : {}),
    ...(draft ? { draft } : {}),
    ...(state.registered ? { players: state.registered } : {}),
  };
}
