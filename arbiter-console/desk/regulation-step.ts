// What the events' regulations ask of the desk beyond pairing and results: the SA Open's no-show
// withdrawal ("a player who does not arrive for a round, without prior notification, will be
// withdrawn"), the chief's ratings for unrated players after round 4, and the appeals log (SA Open: in
// writing within 30 minutes of the game, R200 returned if upheld; Donostia Art. 7-8: within one hour of
// the round's end, to three members of the other tournaments). Each command becomes its record or a
// coded refusal; the Regulations page's part of the view is built here too.
import { appealDeadline, appealsLog, assignRating, emptyRecord, recordNoShow, type EventPlayer } from '../../tournament/index.ts';
import { refusal, type Refusal } from '../contract/index.ts';
import type { PairedPlayer, RegulationsView, TournamentCommand, TournamentRecord } from '../contract/index.ts';
import { key, liveBoard, playerOf, withdrawalsOf, type DeskFace, type DeskState } from './desk-state.ts';
import { appealsOf, wallIso } from './regulation-record.ts';
import { knownResults, missingResults } from './result-step.ts';

type Command<T extends TournamentCommand['type']> = Extract<TournamentCommand, { type: T }>;

const NO_SHOW_ARTICLE = 'SA Open 2009: players who do not arrive for a round';
const RATING_ARTICLE = 'SA Open 2009: ratings for unrated players';
const APPEAL_ARTICLE = { game: 'SA Open 2009: appeals', round: 'Donostia 2009 Art. 8' } as const;

/** Each player who lost a game by default (forfeit, not on the board), by round: whether played results or not yet confirmed. */
function defaultLosses(desk: DeskFace, state: DeskState): { round: number; player: number }[] {
  return knownResults(desk, state)
    .flatMap(({ round, result: g }) => {
      const losers = g.result === '---' ? [g.white, g.black] : g.result === '+--' ? [g.black] : g.result === '--+' ? [g.white] : [];
      return losers.map((player) => ({ round, player }));
    })
    .sort((a, b) => a.round - b.round || a.player - b.player);
}

const playerIn = (desk: DeskFace, id: number): EventPlayer | undefined => desk.section.players.find((p) => p.id === id);
const unknownPlayer = (desk: DeskFace, id: number): Refusal => refusal('unknown-player', `section '${desk.section.id}' has no player ${id}`);

export function checkNoShow(desk: DeskFace, state: DeskState, command: Command<'recordNoShow'>, by: string): Refusal | TournamentRecord {
  const { round, player } = command;
  if (!desk.section.noShowWithdraws)
    return refusal('no-rule', `the regulations of '${desk.section.id}' do not withdraw a player who misses a round: withdraw him by hand if he withdrew`);
  if (!playerIn(desk, player)) return unknownPlayer(desk, player);
  const name = playerOf(state, player).name;
  if (round > desk.currentRound) return refusal('round-not-paired', `round ${round} has not been paired yet`);
  if (!defaultLosses(desk, state).some((l) => l.round === round && l.player === player))
    return refusal('not-a-no-show', `${name} did not lose round ${round} by default (he played, had a bye, or the game has no result yet)`, NO_SHOW_ARTICLE);
  if (state.noShows.some((n) => n.round === round && n.player === player))
    return refusal('already-recorded', `${name}'s absence in round ${round} is decided already`);
  if (!command.noNotification) return { type: 'noShow', round, player, noNotification: false, reason: command.reason, by };
  if (withdrawalsOf(state).some((w) => w.player === player)) return refusal('already-recorded', `${name} has already withdrawn`);
  // Withdrawn from the first round not yet paired: the next one, or later if it is paired already.
  const after = Math.max(round, desk.currentRound);
  const record = recordNoShow(desk.section, { ...emptyRecord, withdrawals: withdrawalsOf(state) }, player, after, false);
  const fromRound = record.withdrawals.find((w) => w.player === player && w.reason === 'no-show')?.fromRound ?? after + 1;
  if (fromRound > desk.totalRounds)
    return refusal('beyond-last-round', `round ${round} is the last of ${desk.totalRounds}: there is no round to withdraw ${name} from`);
  if (state.draft?.round === fromRound)
    return refusal('draft-waiting', `round ${fromRound} has a draft with ${name} in it: discard it first, then pair again without him`);
  return { type: 'noShow', round, player, noNotification: true, fromRound, reason: command.reason, by };
}

/** Whether the chief may assign ratings now: the section's rule, and its round complete (every result entered or confirmed). */
function ratingsOpen(desk: DeskFace, state: DeskState): { possible: boolean; why?: string; afterRound: number } | undefined {
  const after = desk.section.assignRatingsToUnratedAfterRound;
  if (after === undefined) return undefined;
  const lastComplete = missingResults(desk, state, desk.currentRound).length === 0 ? desk.currentRound : desk.currentRound - 1;
  if (lastComplete < after)
    return {
      possible: false,
      why: `ratings are assigned once round ${after} is complete (complete: ${lastComplete > 0 ? `round ${lastComplete}` : 'none'})`,
      afterRound: lastComplete,
    };
  return { possible: true, afterRound: lastComplete };
}

export function checkAssignRating(desk: DeskFace, state: DeskState, command: Command<'assignRating'>, by: string): Refusal | TournamentRecord {
  const open = ratingsOpen(desk, state);
  if (!open) return refusal('no-rule', `the regulations of '${desk.section.id}' have no rule for assigning ratings`);
  const player = playerIn(desk, command.player);
  if (!player) return unknownPlayer(desk, command.player);
  if (player.fideRating !== undefined || player.nationalRating !== undefined)
    return refusal(
      'player-rated',
      `${player.name} is rated (${player.fideRating ?? player.nationalRating}): ratings are assigned to unrated players only`,
      RATING_ARTICLE,
    );
  if (!open.possible) return refusal('round-incomplete', open.why!, RATING_ARTICLE);
  if (state.ratings.get(player.id)?.rating === command.rating) return refusal('already-recorded', `${player.name} has the rating ${command.rating} already`);
  assignRating(desk.section, desk.record(), player, command.rating, open.afterRound); // the library's own rule: throws
  return { type: 'ratingAssigned', player: player.id, rating: command.rating, afterRound: open.afterRound, reason: command.reason, by };
}

/** When (console time) the player's game of `round` ended: on its live board the clock's end, else its first result's record. */
function gameEnd(desk: DeskFace, state: DeskState, round: number, game: { white: number; black: number }): number | undefined {
  const hallBoard = desk.hallBoardOf(round, game.white, game.black);
  const board = hallBoard === undefined ? undefined : liveBoard(desk, hallBoard);
  if (board?.state.result) return board.state.asOf;
  return state.resultAt.get(key(round, game.white, game.black));
}

/** The end the appeal's deadline runs from: the player's game (SA Open) or the whole round (Donostia); a refusal before it. */
function appealEnd(desk: DeskFace, state: DeskState, after: 'game' | 'round', round: number, player: number): number | Refusal {
  const games = desk.pairingOf(round)?.games ?? [];
  const name = playerOf(state, player).name;
  if (after === 'game') {
    const game = games.find((g) => g.white === player || g.black === player);
    if (!game) return refusal('unknown-game', `${name} had no game in round ${round}`);
    return (
      gameEnd(desk, state, round, game) ??
      refusal('round-incomplete', `${name}'s game of round ${round} has not ended: an appeal is lodged after it`, APPEAL_ARTICLE.game)
    );
  }
  const ends = games.map((g) => gameEnd(desk, state, round, g));
  if (games.length === 0 || ends.some((e) => e === undefined))
    return refusal('round-incomplete', `round ${round} has not ended: the hour for appeals runs from its end`, APPEAL_ARTICLE.round);
  return Math.max(...(ends as number[]));
}

export function checkLodgeAppeal(desk: DeskFace, state: DeskState, command: Command<'lodgeAppeal'>, by: string): Refusal | TournamentRecord {
  const rule = desk.event.appeals;
  if (!rule) return refusal('no-rule', `the regulations of '${desk.event.id}' have no appeals`);
  if (!playerIn(desk, command.player)) return unknownPlayer(desk, command.player);
  if (command.round > desk.currentRound) return refusal('round-not-paired', `round ${command.round} has not been paired yet`);
  const article = APPEAL_ARTICLE[rule.after];
  const fee = command.fee ?? 0;
  if (rule.fee !== undefined && fee < rule.fee)
    return refusal('appeal-fee', `the appeal must be accompanied by the fee of ${rule.fee} (paid: ${fee})`, article);
  if (rule.fee === undefined && fee > 0) return refusal('appeal-fee', 'the regulations ask no fee for an appeal', article);
  const endedAt = appealEnd(desk, state, rule.after, command.round, command.player);
  if (typeof endedAt !== 'number') return endedAt;
  const now = desk.hall.source.now();
  const deadline = appealDeadline(rule, wallIso(desk, endedAt));
  if (Date.parse(wallIso(desk, now)) > Date.parse(deadline)) {
    const what = rule.after === 'game' ? 'the game' : `round ${command.round}`;
    return refusal('appeal-late', `too late: appeals are lodged within ${rule.deadlineMinutes} minutes of the end of ${what} (deadline ${deadline})`, article);
  }
  return {
    type: 'appeal',
    id: `A${state.appeals.length + 1}`,
    round: command.round,
    player: command.player,
    against: command.against,
    ...(rule.fee !== undefined ? { fee } : {}),
    endedAt,
    by,
  };
}

export function checkDecideAppeal(desk: DeskFace, state: DeskState, command: Command<'decideAppeal'>, by: string): Refusal | TournamentRecord {
  const rule = desk.event.appeals;
  if (!rule) return refusal('no-rule', `the regulations of '${desk.event.id}' have no appeals`);
  const lodged = state.appeals.find((a) => a.appeal.id === command.appeal);
  if (!lodged) return refusal('unknown-appeal', `the appeals log of '${desk.section.id}' has no appeal ${command.appeal}`);
  if (lodged.decision) return refusal('appeal-decided', `appeal ${command.appeal} was decided already (by ${lodged.decision.record.by})`);
  const names: string[] = [];
  const sections = new Set<string>();
  for (const member of command.committee) {
    if ('name' in member) {
      if (rule.committee?.fromOtherSections)
        return refusal('committee-invalid', `${member.name}: the committee's members are players of the other tournaments`, 'Donostia 2009 Art. 7');
      names.push(member.name);
      continue;
    }
    const section = desk.event.sections.find((s) => s.id === member.section);
    const player = section?.players.find((p) => p.id === member.player);
    if (!section || !player) return refusal('committee-invalid', `the event has no player ${member.player} in section '${member.section}'`);
    if (rule.committee?.fromOtherSections && (section.id === desk.section.id || sections.has(section.id)))
      return refusal(
        'committee-invalid',
        `${player.name}: the committee has one member of each of the other tournaments, none of this one`,
        'Donostia 2009 Art. 7',
      );
    sections.add(section.id);
    names.push(`${player.name} (${section.name})`);
  }
  if (new Set(names).size !== names.length) return refusal('committee-invalid', 'a member is named twice');
  if (rule.committee && names.length !== rule.committee.members)
    return refusal('committee-invalid', `the committee has ${rule.committee.members} members, not ${names.length}`, 'Donostia 2009 Art. 7');
  return { type: 'appealDecision', appeal: command.appeal, upheld: command.upheld, committee: names, reason: command.reason, by };
}

/** The Regulations page: the no-shows to decide, the unrated players' ratings, the appeals log. */
export function regulationsView(desk: DeskFace, state: DeskState): RegulationsView {
  const player = (id: number): PairedPlayer => playerOf(state, id);
  const noShows = desk.section.noShowWithdraws
    ? defaultLosses(desk, state).map(({ round, player: id }) => {
        const decided = state.noShows.find((n) => n.round === round && n.player === id);
        return {
          round,
          player: player(id),
          ...(decided
            ? {
                decided: {
                  withdrawn: decided.noNotification,
                  ...(decided.fromRound !== undefined ? { fromRound: decided.fromRound } : {}),
                  reason: decided.reason,
                  by: decided.by,
                },
              }
            : {}),
        };
      })
    : null;
  const open = ratingsOpen(desk, state);
  const ratings = open
    ? {
        afterRound: desk.section.assignRatingsToUnratedAfterRound!,
        possible: open.possible,
        ...(open.why !== undefined ? { why: open.why } : {}),
        unrated: desk.section.players
          .filter((p) => p.fideRating === undefined && p.nationalRating === undefined)
          .map((p) => {
            const assigned = state.ratings.get(p.id);
            return {
              player: player(p.id),
              ...(assigned ? { assigned: { rating: assigned.rating, afterRound: assigned.afterRound, reason: assigned.reason, by: assigned.by } } : {}),
            };
          }),
      }
    : null;
  const rule = desk.event.appeals;
  const log = appealsLog(desk.event, { ...emptyRecord, appeals: appealsOf(desk, state) }).map((ruling, i) => {
    const lodged = state.appeals[i]!;
    const decision = ruling.appeal.decision;
    return {
      id: lodged.appeal.id,
      round: lodged.appeal.round,
      player: player(lodged.appeal.player),
      against: lodged.appeal.against,
      filedAt: ruling.appeal.filedAt,
      endedAt: ruling.appeal.endedAt,
      deadline: ruling.deadline,
      ...(lodged.appeal.fee !== undefined ? { fee: lodged.appeal.fee } : {}),
      by: lodged.appeal.by,
      ...(decision && lodged.decision ? { decision: { ...decision, by: lodged.decision.record.by } } : {}),
      ...(ruling.feeReturned !== undefined ? { feeReturned: ruling.feeReturned } : {}),
    };
  });
  return {
    noShows,
    ratings,
    appeals: {
      rule: rule
        ? {
            deadlineMinutes: rule.deadlineMinutes,
            after: rule.after,
            ...(rule.fee !== undefined ? { fee: rule.fee } : {}),
            ...(rule.committee
              ? { committee: `${rule.committee.members} members${rule.committee.fromOtherSections ? ', one of each of the other tournaments' : ''}` }
              : {}),
          }
        : null,
      log,
    },
  };
}
