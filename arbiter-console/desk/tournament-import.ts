// A TRF-16 file (a console's /api/trf, or Swiss-Manager's export) read into a section: the arbiter's
// import of a registration list or of rounds played elsewhere, and the results of earlier rounds
// carried into a one-round console. Games and byes are read as the event's players.
import type { GameResult } from '../../clock-engine/index.ts';
import { parseTrf, type EventPlayer, type EventSection, type TrfResultCode, type TrfTournament } from '../../tournament/index.ts';
import type { RegistrationUpdate, TournamentRecord, TrfImportPreview } from '../contract/index.ts';
import { refusal, type Refusal } from '../contract/index.ts';

type Imported = Extract<TournamentRecord, { type: 'import' }>;

const played: Partial<Record<TrfResultCode, { result: GameResult; short: boolean }>> = {
  '1': { result: '1-0', short: false },
  '0': { result: '0-1', short: false },
  '=': { result: '1/2-1/2', short: false },
  W: { result: '1-0', short: true },
  L: { result: '0-1', short: true },
  D: { result: '1/2-1/2', short: true },
};
const byeKinds: Partial<Record<TrfResultCode, 'pab' | 'full' | 'half' | 'zero'>> = { U: 'pab', F: 'full', H: 'half', Z: 'zero' };

/**
 * Each line's player of the section (TRF number to event id), whatever the file's numbering (zeitnot's
 * export numbers a Swiss by pairing numbers, Swiss-Manager by its own): the player with that FIDE id,
 * else with that name. A name two of the section's players share says nobody: the line is that
 * pairing number's player only if he has the name (zeitnot's own export), else the file is refused.
 * A player the section does not have, or two lines for one player, is an error.
 */
export function sectionPlayersOf(trf: TrfTournament, section: EventSection, from: string): Map<number, number> {
  const byFideId = new Map(section.players.flatMap((p) => (p.fideId ? [[p.fideId, p] as const] : [])));
  const byName = new Map<string, EventPlayer[]>();
  for (const p of section.players) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  const eventId = new Map<number, number>();
  const lineOf = new Map<number, number>();
  for (const p of trf.players) {
    const named = byName.get(p.name) ?? [];
    const player = (p.fideId ? byFideId.get(p.fideId) : undefined) ?? (named.length > 1 ? named.find((n) => n.id === p.id) : named[0]);
    if (!player && named.length > 1) {
      throw new RangeError(
        `${from}: player ${p.id} (${p.name}) has no FIDE id, and section '${section.id}' has ${named.length} players of that name (${named.map((n) => n.id).join(', ')}): give the file their FIDE ids`,
      );
    }
    if (!player) throw new RangeError(`${from}: player ${p.id} (${p.name}${p.fideId ? `, FIDE id ${p.fideId}` : ''}) is not in section '${section.id}'`);
    const twice = lineOf.get(player.id);
    if (twice !== undefined) throw new RangeError(`${from}: players ${twice} and ${p.id} are both '${player.name}'`);
    lineOf.set(player.id, p.id);
    eventId.set(p.id, player.id);
  }
  return eventId;
}

/**
 * The games and byes of rounds 1..`beforeRound - 1` in a TRF read already, its lines' players known
 * (`eventId`: TRF number to event id, as sectionPlayersOf reads them). A game the two players' lines
 * disagree on is an error naming them.
 */
function resultsOf(trf: TrfTournament, eventId: ReadonlyMap<number, number>, beforeRound: number, from: string, by: string): Imported {
  const lines = new Map(trf.players.map((p) => [p.id, p]));
  const games: Imported['games'][number][] = [];
  const byes: Imported['byes'][number][] = [];
  for (const p of trf.players) {
    p.rounds.slice(0, beforeRound - 1).forEach((entry, i) => {
      const round = i + 1;
      if (entry.opponent === null) {
        const kind = byeKinds[entry.result];
        if (kind && kind !== 'zero') byes.push({ round, player: eventId.get(p.id)!, kind });
        return;
      }
      if (entry.colour !== 'w') return; // each game once, from White's line
      const other = lines.get(entry.opponent)?.rounds[i];
      if (!other || other.opponent !== p.id || other.colour !== 'b')
        throw new RangeError(`${from}: round ${round}: ${p.id} has White against ${entry.opponent}, whose line does not say so`);
      if (entry.result === '+' || entry.result === '-') {
        const result: GameResult = entry.result === '+' ? '+--' : other.result === '+' ? '--+' : '---';
        games.push({ round, white: eventId.get(p.id)!, black: eventId.get(entry.opponent)!, result });
        return;
      }
      const game = played[entry.result];
      if (!game) throw new RangeError(`${from}: round ${round}: result '${entry.result}' of player ${p.id} is not a game result`);
      games.push({
        round,
        white: eventId.get(p.id)!,
        black: eventId.get(entry.opponent)!,
        result: game.result,
        ...(game.short ? { lessThanOneMove: true } : {}),
      });
    });
  }
  return { type: 'import', from, games, byes, by };
}

const titles: Readonly<Record<string, EventPlayer['title']>> = { g: 'GM', m: 'IM', f: 'FM', c: 'CM', wg: 'WGM', wm: 'WIM', wf: 'WFM', wc: 'WCM' };
const titleOf = (text: string): EventPlayer['title'] | undefined => {
  const t = text.trim();
  return (['GM', 'IM', 'WGM', 'FM', 'WIM', 'CM', 'WFM', 'WCM'] as const).find((k) => k === t.toUpperCase()) ?? titles[t.toLowerCase()];
};

/** A TRF import checked against the section alone: the record to journal and what it changes. */
export type TrfImportPlan = { readonly ok: true; readonly record: Imported; readonly preview: TrfImportPreview } | Refusal;

/**
 * What a TRF-16 file from another program sets in a section: the registration data of its players
 * (FIDE rating, federation, title, FIDE id; players matched by FIDE id or name, as sectionPlayersOf)
 * and the games and byes of every round it has results for. A file that does not parse (line:column),
 * a player the section does not have, a round with a game still unplayed, more rounds than the
 * section has, or section players missing from a file with rounds is refused, naming why.
 */
export function planTrfImport(
  text: string,
  section: EventSection,
  options: { readonly from: string; readonly digest: string; readonly by: string; readonly totalRounds: number },
): TrfImportPlan {
  const { from, digest, by } = options;
  let trf: TrfTournament;
  try {
    trf = parseTrf(text);
    const eventId = sectionPlayersOf(trf, section, from);
    const rounds = playedRounds(trf);
    if (rounds > options.totalRounds)
      return refusal('trf-mismatch', `${from}: results of ${rounds} rounds, section '${section.id}' has ${options.totalRounds}`);
    const listed = new Set(eventId.values());
    const notInFile = section.players.filter((p) => !listed.has(p.id)).map((p) => p.name);
    if (rounds > 0 && notInFile.length > 0)
      return refusal(
        'trf-mismatch',
        `${from}: rounds 1–${rounds} are played there, but ${notInFile.join(', ')} of section '${section.id}' ${notInFile.length === 1 ? 'is' : 'are'} not in the file`,
      );
    const results = rounds > 0 ? resultsOf(trf, eventId, rounds + 1, from, by) : { games: [], byes: [] };
    const byId = new Map(section.players.map((p) => [p.id, p]));
    const players: RegistrationUpdate[] = [];
    const changed: { id: number; name: string; changes: string[] }[] = [];
    for (const line of trf.players) {
      const player = byId.get(eventId.get(line.id)!)!;
      const update: { -readonly [K in keyof RegistrationUpdate]: RegistrationUpdate[K] } = { id: player.id };
      const changes: string[] = [];
      if (line.rating !== null && line.rating !== player.fideRating) {
        update.fideRating = line.rating;
        changes.push(`rating ${player.fideRating ?? 'unrated'} → ${line.rating}`);
      }
      if (/^[A-Z]{3}$/.test(line.federation) && line.federation !== player.federation) {
        update.federation = line.federation;
        changes.push(`federation ${player.federation} → ${line.federation}`);
      }
      const title = titleOf(line.title);
      if (title && title !== player.title) {
        update.title = title;
        changes.push(`title ${player.title ?? 'none'} → ${title}`);
      }
      if (/^\d{1,11}$/.test(line.fideId) && line.fideId !== player.fideId) {
        update.fideId = line.fideId;
        changes.push(`FIDE id ${player.fideId ?? 'none'} → ${line.fideId}`);
      }
      if (changes.length === 0) continue;
      players.push(update);
      changed.push({ id: player.id, name: player.name, changes });
    }
    const notImported = trf.players.flatMap((p) =>
      p.rounds
        .slice(rounds)
        .flatMap((entry, i) =>
          entry.opponent === null && entry.result !== 'Z'
            ? [`${p.name}: '${entry.result}' in round ${rounds + i + 1} (a bye asked for a round not played yet: enter it under Byes and withdrawals)`]
            : [],
        ),
    );
    const record: Imported = { type: 'import', from, digest, rounds, ...(players.length > 0 ? { players } : {}), games: results.games, byes: results.byes, by };
    const next =
      rounds + 1 > options.totalRounds
        ? 'every round is played'
        : `round ${rounds + 1}: ${section.format.kind === 'swiss' ? 'paired by the Dutch engine' : 'from the Berger table'}`;
    return {
      ok: true,
      record,
      preview: {
        section: section.id,
        from,
        digest,
        players: { inFile: trf.players.length, changed, notInFile },
        rounds,
        games: results.games.length,
        byes: results.byes.length,
        next,
        notImported,
      },
    };
  } catch (err) {
    // The file does not parse, or does not fit the section (a player it does not have, a round half played).
    return refusal('bad-trf', err instanceof Error ? (err.message.startsWith(from) ? err.message : `${from}: ${err.message}`) : String(err));
  }
}

/**
 * The rounds a file has results for: up to the last one in which anybody was paired (a game or the
 * pairing-allocated bye). TRF-16 has no code for a game not played yet: a paired game has its result.
 */
function playedRounds(trf: TrfTournament): number {
  let rounds = 0;
  for (const p of trf.players) p.rounds.forEach((e, i) => (e.opponent !== null || e.result === 'U' ? (rounds = Math.max(rounds, i + 1)) : undefined));
  return rounds;
}

/** The section's players with a registration list's updates (the event file's entry list as imported). */
export function withRegistration(players: readonly EventPlayer[], updates: readonly RegistrationUpdate[]): EventPlayer[] {
  const byId = new Map(updates.map((u) => [u.id, u]));
  return players.map((p) => {
    const u = byId.get(p.id);
    if (!u) return p;
    const { id: _id, ...set } = u;
    return { ...p, ...set };
  });
}
