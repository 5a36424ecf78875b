// The desk's refusal checks: a tournament command checked against the section as it stands becomes
// the record to journal or a refusal with its code (the codes of contract/refusals.ts). Nothing is
// journaled or applied here: the desk does that with what this returns (tournament-desk.ts), or a
// console on the bus writes it to the stream first (prepare, bus-desk.ts).
import { randomInt } from 'node:crypto';
import { decidePlayoff, NoValidPairingError, recordBoardResult, recordPlayoffResult, sectionStandings, tiedForFirst } from '../../tournament/index.ts';
import { refusal, type Refusal } from '../contract/index.ts';
import type { TournamentCommand, TournamentRecord } from '../contract/index.ts';
import { key, nextIncidentId, withdrawalsOf, type DeskFace, type DeskState } from './desk-state.ts';
import { metIn, pairNext } from './pairing-step.ts';
import { playoffFormatRecord, playoffPossible } from './playoff-step.ts';
import { checkAssignRating, checkDecideAppeal, checkLodgeAppeal, checkNoShow } from './regulation-step.ts';
import { missingResults, missingText } from './result-step.ts';

/** A refusal or the record to journal. Throws (refused with its message, `tournament-rule`) on tournament-rule errors. */
export function checkCommand(desk: DeskFace, state: DeskState, command: TournamentCommand, by: string): Refusal | TournamentRecord {
  const name = (id: number): string => desk.section.players.find((p) => p.id === id)?.name ?? `#${id}`;
  switch (command.type) {
    case 'enterResult':
    case 'confirmResult': {
      const { round, white, black } = command;
      if (round > desk.currentRound) return refusal('round-not-paired', `round ${round} has no pairings yet (current round: ${desk.currentRound})`);
      const pairing = desk.pairingOf(round);
      if (pairing && !pairing.games.some((g) => g.white === white && g.black === black)) {
        return refusal('unknown-game', `round ${round} has no game ${name(white)} (White) – ${name(black)} (Black)`);
      }
      if (command.type === 'confirmResult') {
        const hallBoard = desk.hallBoardOf(round, white, black);
        const clock = hallBoard === undefined ? null : desk.clockResult(hallBoard);
        if (!clock) return refusal('no-clock-result', `no result from the clock for ${name(white)} – ${name(black)} in round ${round}`);
        const had = state.entered.get(key(round, white, black));
        if (had?.source === 'confirmed' && had.result === clock.result)
          return refusal(
            'already-recorded',
            `round ${round}: the clock's ${clock.result} for ${name(white)} – ${name(black)} is confirmed already (by ${had.by})`,
          );
        return {
          type: 'result',
          round,
          white,
          black,
          result: clock.result,
          source: 'confirmed',
          termination: clock.termination ?? '',
          ...(clock.lessThanOneMove ? { lessThanOneMove: true } : {}),
          by,
        };
      }
      const existing = state.entered.get(key(round, white, black));
      if (existing?.source === 'arbiter' && existing.result === command.result)
        return refusal('already-recorded', `round ${round}: ${name(white)} – ${name(black)} is already ${command.result}`);
      const hallBoard = desk.hallBoardOf(round, white, black);
      const before = existing?.result ?? (hallBoard === undefined ? undefined : desk.clockResult(hallBoard)?.result);
      const replaces = before !== undefined && before !== command.result ? { replaces: before } : {};
      const record: TournamentRecord = {
        type: 'result',
        round,
        white,
        black,
        result: command.result,
        source: 'arbiter',
        termination: 'arbiter',
        reason: command.reason,
        ...replaces,
        by,
      };
      recordBoardResult(desk.section, desk.record(), round, { white, black, result: command.result }); // clashes throw
      return record;
    }
    case 'pairNextRound':
      return pairNext(desk, state, by);
    case 'confirmRound':
    case 'resolveResultConflict':
      return refusal('internal', `${command.type} goes through command()`);
    case 'swapColours':
    case 'exchangeOpponents': {
      const draft = state.draft;
      if (!draft) return refusal('no-draft', 'there is no draft pairing: pair the next round first');
      for (const board of [command.board, command.type === 'exchangeOpponents' ? command.otherBoard : command.board]) {
        if (!draft.games[board - 1])
          return refusal('unknown-draft-board', `the draft of round ${draft.round} has boards 1–${draft.games.length}, not ${board}`);
      }
      const change: TournamentRecord =
        command.type === 'swapColours'
          ? { type: 'draftChange', change: 'swapColours', board: command.board, reason: command.reason, by }
          : { type: 'draftChange', change: 'exchangeOpponents', board: command.board, otherBoard: command.otherBoard, reason: command.reason, by };
      if (command.type === 'exchangeOpponents') {
        const a = draft.games[command.board - 1]!;
        const b = draft.games[command.otherBoard - 1]!;
        for (const [w, bl] of [
          [a.white, b.black],
          [b.white, a.black],
        ] as const) {
          const met = metIn(desk, w, bl);
          if (met !== undefined) return refusal('already-met', `${name(w)} and ${name(bl)} already played each other in round ${met}`, 'FIDE C.04.1');
        }
      }
      return change;
    }
    case 'discardDraft':
      if (!state.draft) return refusal('no-draft', 'there is no draft pairing to discard');
      return { type: 'discardDraft', reason: command.reason, by };
    case 'publishRound':
      if (!state.draft) return refusal('no-draft', 'there is no draft pairing to publish: pair the next round first');
      if (state.draft.round > desk.liveRound && !desk.liveRoundClosed) {
        return refusal(
          'results-unconfirmed',
          `round ${desk.liveRound} is still on the boards: confirm its results first (${missingText(missingResults(desk, state, desk.liveRound))})`,
        );
      }
      return { type: 'publish', round: state.draft.round, by };
    case 'startPlayoff': {
      const possible = playoffPossible(desk, state);
      if (!possible.possible) return refusal('playoff-impossible', possible.why!);
      const tied = tiedForFirst(sectionStandings(desk.event, desk.section.id, desk.record()));
      return { type: 'playoffStart', tied, seed: randomInt(1, 2 ** 31 - 1), by };
    }
    case 'playoffResult': {
      if (!state.playoff) return refusal('no-playoff', 'no playoff has been started');
      const onBoard = desk.hall.seated.get(desk.playoffSection)?.boards.find((b) => b.playoffGame === command.game);
      if (onBoard)
        return refusal(
          'playoff-on-board',
          `playoff game ${command.game} is played on hall board ${onBoard.id}: its clock gives the result (end the game on the board: a result or a forfeit)`,
        );
      recordPlayoffResult(state.playoff, command.game, command.result); // unknown or decided game throws
      return { type: 'playoffResult', game: command.game, result: command.result, by };
    }
    case 'decidePlayoff': {
      if (!state.playoff) return refusal('no-playoff', 'no playoff has been started');
      decidePlayoff(state.playoff, command.winner, command.reason); // not the arbiter's to decide, or not a player still in: throws
      return { type: 'playoffRuling', winner: command.winner, reason: command.reason, by };
    }
    case 'setPlayoffFormat':
      return playoffFormatRecord(desk, state, command, by);
    case 'requestBye': {
      if (!desk.section.players.some((p) => p.id === command.player))
        return refusal('unknown-player', `section '${desk.section.id}' has no player ${command.player}`);
      if (desk.section.format.kind !== 'swiss') return refusal('not-swiss', 'byes on request exist in a Swiss only (a round robin follows the Berger table)');
      if (command.round <= desk.currentRound) return refusal('round-paired', `round ${command.round} is already paired`);
      if (state.draft?.round === command.round)
        return refusal('draft-waiting', `round ${command.round} has a draft: discard it first, then pair again with the bye`);
      if (command.round > desk.totalRounds) return refusal('beyond-last-round', `the section has ${desk.totalRounds} rounds`);
      if (state.byes.some((b) => b.round === command.round && b.player === command.player))
        return refusal('already-recorded', `${name(command.player)} already has a bye in round ${command.round}`);
      return { type: 'bye', round: command.round, player: command.player, kind: command.kind, reason: command.reason, by };
    }
    case 'withdrawPlayer': {
      if (!desk.section.players.some((p) => p.id === command.player))
        return refusal('unknown-player', `section '${desk.section.id}' has no player ${command.player}`);
      if (command.fromRound > desk.totalRounds) return refusal('beyond-last-round', `the section has ${desk.totalRounds} rounds`);
      if (withdrawalsOf(state).some((w) => w.player === command.player)) return refusal('already-recorded', `${name(command.player)} has already withdrawn`);
      return { type: 'withdrawal', player: command.player, fromRound: command.fromRound, reason: command.reason, by };
    }
    case 'renamePlayer': {
      const player = desk.section.players.find((p) => p.id === command.player);
      if (!player) return refusal('unknown-player', `section '${desk.section.id}' has no player ${command.player}`);
      if (player.name === command.name) return refusal('nothing-to-do', `player ${command.player} is '${command.name}' already`);
      return { type: 'rename', player: command.player, name: command.name, reason: command.reason, by };
    }
    case 'recordIncident': {
      if (!desk.section.players.some((p) => p.id === command.player))
        return refusal('unknown-player', `section '${desk.section.id}' has no player ${command.player}`);
      if (command.round > desk.currentRound) return refusal('round-not-paired', `round ${command.round} has not been paired yet`);
      if (!desk.section.fines.some((f) => f.offence === command.offence)) {
        return refusal(
          'no-rule',
          `the regulations of '${desk.section.id}' have no rule for '${command.offence}' (rules: ${desk.section.fines.map((f) => f.offence).join(', ') || 'none'})`,
        );
      }
      // Late once a round: the clock's late arrival journaled already (or another arbiter's entry) is the same incident.
      const late =
        command.offence === 'late-arrival' &&
        state.incidents.find((i) => i.round === command.round && i.player === command.player && i.offence === 'late-arrival');
      if (late)
        return refusal('already-recorded', `${name(command.player)}'s late arrival in round ${command.round} is recorded already (${late.id}, by ${late.by})`);
      const id = nextIncidentId(state, command.round, command.player, command.offence);
      return {
        type: 'incident',
        id,
        round: command.round,
        player: command.player,
        offence: command.offence,
        ...(command.note ? { note: command.note } : {}),
        by,
      };
    }
    case 'recordNoShow':
      return checkNoShow(desk, state, command, by);
    case 'assignRating':
      return checkAssignRating(desk, state, command, by);
    case 'lodgeAppeal':
      return checkLodgeAppeal(desk, state, command, by);
    case 'decideAppeal':
      return checkDecideAppeal(desk, state, command, by);
    case 'waiveFine':
      return waiver(desk, state, command, by);
  }
}

/** The chief's waiver of a journaled incident's fine, or why not (the sanction itself is the regulation's and stays). */
function waiver(desk: DeskFace, state: DeskState, command: Extract<TournamentCommand, { type: 'waiveFine' }>, by: string): Refusal | TournamentRecord {
  const incident = state.incidents.find((i) => i.id === command.incident);
  if (!incident) {
    const seen = desk.record().incidents.find((i) => i.id === command.incident && i.provisional);
    return seen
      ? refusal('unknown-incident', `${command.incident} is the clock's, not journaled yet: confirm the game's result of round ${seen.round} first`)
      : refusal('unknown-incident', `section '${desk.section.id}' has no incident ${command.incident}`);
  }
  const waived = state.waivers.get(incident.id);
  if (waived) return refusal('already-waived', `the fine of ${incident.id} was waived by ${waived.by}: ${waived.reason}`);
  const rule = desk.section.fines.find((f) => f.offence === incident.offence);
  if (!rule || rule.amount === 0)
    return refusal(
      'no-fine',
      `${incident.id}: the regulations of '${desk.section.id}' set no fine for '${incident.offence}' (its sanction: ${rule?.sanction ?? 'none'})`,
    );
  return { type: 'waiver', incident: incident.id, reason: command.reason, by };
}

/**
 * A command the tournament's own code refused by throwing: a RangeError is its rule (a result that
 * clashes, a playoff game decided already), as is a round the Dutch engine cannot pair; anything else
 * is the console's own failure.
 */
export function ruleRefusal(err: unknown): Refusal {
  if (err instanceof RangeError || err instanceof NoValidPairingError) return refusal('tournament-rule', err.message);
  return refusal('internal', err instanceof Error ? err.message : String(err));
}
