// The pairing step of the desk: the next round's draft (the Dutch engine for a Swiss, the Berger table
// for a round robin), the players who met already, what keeps the next round from being paired, the
// pairing of any round as far as it is known (live boards, published, imported, the table), and the
// draft as the arbiter sees it before publishing. Functions over the desk's face and state.
import { emptyRecord, playersToPair, roundBoards, type Pairing } from '../../tournament/index.ts';
import { refusal, type Refusal } from '../contract/index.ts';
import type { DraftView, RoundPairings, TournamentRecord, TournamentView } from '../contract/index.ts';
import { playerOf, withdrawalsOf, type DeskFace, type DeskState } from './desk-state.ts';
import { missingResults, missingText } from './result-step.ts';
import { swissPairing, type SwissPairing, type SwissPairingInput } from './swiss-pairer.ts';

/** Who met whom so far: `low-high` pairing numbers -> the round they met in (any colours). */
export function meetings(desk: DeskFace): Map<string, number> {
  const met = new Map<string, number>();
  for (const round of desk.record().rounds) {
    for (const g of round.games) met.set(g.white < g.black ? `${g.white}-${g.black}` : `${g.black}-${g.white}`, round.round);
  }
  return met;
}

/** The round in which two players met, if they did (any colours). */
export function metIn(desk: DeskFace, a: number, b: number, met = meetings(desk)): number | undefined {
  return met.get(a < b ? `${a}-${b}` : `${b}-${a}`);
}

/** The next round to pair and whether it may be paired now (null: every round is paired). */
export function nextRound(desk: DeskFace, state: DeskState): TournamentView['nextRound'] {
  const round = desk.currentRound + 1;
  if (round > desk.totalRounds) return null;
  if (state.draft)
    return {
      round,
      possible: false,
      why: `the draft of round ${state.draft.round} is waiting: publish ${state.draft.round === desk.liveRound ? 'it' : 'or discard it'}`,
    };
  if (desk.section.format.kind === 'swiss') {
    const missing = missingResults(desk, state, desk.currentRound);
    if (missing.length > 0) return { round, possible: false, why: `round ${desk.currentRound} needs confirmed results: ${missingText(missing)}` };
  }
  // A round robin's next round may be drafted from the Berger table while this one is played; its
  // boards are the live round's, so publishing waits (as publishRound refuses).
  if (!desk.liveRoundClosed) return { round, possible: true, publishAfter: `round ${desk.liveRound} is finished and its results confirmed` };
  return { round, possible: true };
}

/**
 * What pairing the next round takes: a refusal, the draft at once (a round robin's Berger table), or
 * the Dutch engine's input (a Swiss), to pair inline (`pairNext`) or in the pairing worker.
 */
export function pairingPlan(
  desk: DeskFace,
  state: DeskState,
  by: string,
): Refusal | { readonly draft: TournamentRecord } | { readonly swiss: SwissPairingInput } {
  const next = nextRound(desk, state);
  if (!next) return refusal('beyond-last-round', `all ${desk.totalRounds} rounds are paired`);
  if (!next.possible) return refusal(state.draft ? 'draft-waiting' : 'results-unconfirmed', next.why!);
  if (desk.section.format.kind === 'swiss') {
    const byes = state.byes.filter((b) => b.round === next.round).map((b) => ({ player: b.player, round: b.round, kind: b.kind }));
    return { swiss: { event: desk.event, section: desk.section.id, record: desk.record(), round: next.round, byes } };
  }
  const table = roundBoards(desk.event, desk.section.id, next.round);
  return {
    draft: { type: 'draft', round: next.round, games: table.boards.map((b) => ({ white: b.white.id, black: b.black.id })), bye: table.bye?.id ?? null, by },
  };
}

/** The Dutch engine's pairing as the draft record of its round. */
export function swissDraft(input: SwissPairingInput, pairing: SwissPairing, by: string): TournamentRecord {
  return { type: 'draft', round: input.round, games: pairing.games, bye: pairing.bye, by };
}

/** The draft of the next round, or why it cannot be paired, paired here. Throws when the Dutch engine finds no pairing. */
export function pairNext(desk: DeskFace, state: DeskState, by: string): Refusal | TournamentRecord {
  const plan = pairingPlan(desk, state, by);
  if ('code' in plan) return plan;
  return 'draft' in plan ? plan.draft : swissDraft(plan.swiss, swissPairing(plan.swiss), by);
}

/** The pairing of a round, where it is known: live boards, a published round, the Berger table. */
export function roundPairing(
  desk: DeskFace,
  state: DeskState,
  round: number,
): { games: readonly Pairing[]; bye: number | null; status: RoundPairings['status'] } | undefined {
  const published = state.published.get(round);
  if (round === desk.liveRound && desk.hallPairs.size > 0)
    return { games: published?.games ?? [...desk.hallPairs.values()], bye: published?.bye ?? null, status: 'live' };
  if (published) return { ...published, status: 'published' };
  if (round === desk.liveRound) return { games: [...desk.hallPairs.values()], bye: liveBye(desk, state), status: 'live' };
  const imported = state.imported.flatMap((i) => i.games.filter((g) => g.round === round));
  if (imported.length > 0) {
    const bye = state.imported.flatMap((i) => i.byes).find((b) => b.round === round && b.kind === 'pab');
    return { games: imported.map((g) => ({ white: g.white, black: g.black })), bye: bye?.player ?? null, status: 'imported' };
  }
  if (desk.section.format.kind === 'round-robin' && round >= 1 && round <= desk.totalRounds) {
    const table = roundBoards(desk.event, desk.section.id, round);
    return { games: table.boards.map((b) => ({ white: b.white.id, black: b.black.id })), bye: table.bye?.id ?? null, status: 'table' };
  }
  return undefined;
}

/**
 * The pairing-allocated bye of the live Swiss round when it was not paired here: the one player
 * who is on no board and not absent (withdrawn, late registrant, requested bye).
 */
function liveBye(desk: DeskFace, state: DeskState): number | null {
  if (desk.section.format.kind !== 'swiss') return null;
  const seated = new Set([...desk.hallPairs.values()].flatMap((p) => [p.white, p.black]));
  const absent = new Set([
    ...playersToPair(desk.section, { ...emptyRecord, withdrawals: withdrawalsOf(state) }, desk.liveRound).notPaired.map((n) => n.player.id),
    ...state.byes.filter((b) => b.round === desk.liveRound).map((b) => b.player),
  ]);
  const left = desk.section.players.filter((p) => !seated.has(p.id) && !absent.has(p.id));
  return left.length === 1 ? left[0]!.id : null;
}

/** The draft as the arbiter sees it: its boards, the changes made to it and any rematch it holds. */
export function draftView(desk: DeskFace, state: DeskState): DraftView | undefined {
  const draft = state.draft;
  if (!draft) return undefined;
  const met = meetings(desk);
  const player = (id: number) => playerOf(state, id);
  return {
    round: draft.round,
    games: draft.games.map((g, i) => ({ board: i + 1, white: player(g.white), black: player(g.black) })),
    bye: draft.bye === null ? null : player(draft.bye),
    changes: draft.changes,
    rematches: draft.games.flatMap((g) => {
      const round = metIn(desk, g.white, g.black, met);
      return round === undefined ? [] : [`${player(g.white).name} – ${player(g.black).name} (round ${round})`];
    }),
  };
}
