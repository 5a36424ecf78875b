// The pairing of a Swiss round for a new round's console. Results of rounds 1..N-1 come from a
// TRF-16 file (the previous console's GET /api/trf); the pairing of round N is either the one the
// previous console published (its GET /api/pairings?round=N, manual changes included) or, without
// it, the Dutch engine's, made here at start and held as a draft until the arbiter publishes it.
import { z } from 'zod';
import {
  emptyRecord,
  findSection,
  pairSwissRound,
  parseTrf,
  recordBoardResult,
  type ByeRequest,
  type EventSection,
  type Pairing,
  type SectionRecord,
  type ZeitnotEvent,
} from '../../tournament/index.ts';
import { resultsFromTrf, sectionPlayersOf } from './tournament-import.ts';

export interface LivePairing {
  readonly round: number;
  /** In board order, event player ids. */
  readonly games: readonly Pairing[];
  /** The pairing-allocated bye: scored as a point, not a board. */
  readonly bye: number | null;
  /** 'engine': paired at start, a draft until published; 'published': the previous console's published round. */
  readonly source: 'engine' | 'published';
  /** Half-point byes asked for in advance (TRF 'H' in round N's column): kept out, scored half a point. */
  readonly requestedByes: readonly ByeRequest[];
}

export interface SwissRoundInput {
  /** The results of rounds 1..N-1 (required from round 2 on). */
  readonly previous?: { readonly from: string; readonly trf: string };
  /** The published round: the previous console's `GET /api/pairings?round=N` answer (JSON text). */
  readonly published?: { readonly from: string; readonly json: string };
}

const playerRef = z.object({ id: z.number().int(), name: z.string() });
const publishedSchema = z.object({
  section: z.object({ id: z.string() }),
  round: z.number().int(),
  status: z.enum(['live', 'published', 'table', 'imported']),
  games: z.array(z.object({ white: playerRef, black: playerRef })).min(1),
  bye: playerRef.nullable(),
});

interface Previous {
  readonly record: SectionRecord;
  readonly requestedByes: ByeRequest[];
  /** The pairing-allocated bye already written in round N's column (the previous console published round N). */
  readonly pab: number | null;
}

/** Round `round` of a Swiss section, taken as published or paired by the Dutch engine. Throws naming the file and what is wrong. */
export function swissRoundPairing(event: ZeitnotEvent, sectionId: string, round: number, input: SwissRoundInput = {}): LivePairing {
  const section = findSection(event, sectionId);
  if (section.format.kind !== 'swiss') throw new RangeError(`section '${section.id}' is a round robin: its rounds come from the Berger table, not from pairings`);
  if (!Number.isInteger(round) || round < 1 || round > section.format.rounds) throw new RangeError(`section '${section.id}' has rounds 1..${section.format.rounds}, not ${round}`);
  let previous: Previous = { record: emptyRecord, requestedByes: [], pab: null };
  if (input.previous) previous = readPrevious(section, round, input.previous.from, input.previous.trf);
  else if (round > 1) {
    throw new RangeError(`round ${round} of a Swiss is paired from the results of rounds 1..${round - 1}: give them with --results FILE.trf (the previous round's GET /api/trf)`);
  }
  if (input.published) return takePublished(section, round, previous, input.published.from, input.published.json);
  const swiss = pairSwissRound(event, section.id, previous.record, round, previous.requestedByes);
  if (previous.pab !== null && swiss.bye !== previous.pab) {
    throw new RangeError(
      `${input.previous!.from}: round ${round} was published with the pairing-allocated bye for player ${previous.pab}, the Dutch engine gives it to ${swiss.bye === null ? 'nobody' : `player ${swiss.bye}`}: start with the published pairing (--pairings, the previous console's /api/pairings?round=${round})`,
    );
  }
  return { round, games: swiss.games, bye: swiss.bye, source: 'engine', requestedByes: previous.requestedByes };
}

/** The record of rounds 1..N-1 from a TRF, checked to be exactly that: every player, no game of round N or later. */
function readPrevious(section: EventSection, round: number, from: string, text: string): Previous {
  const trf = parseTrf(text);
  const eventId = sectionPlayersOf(trf, section, from);
  const inFile = new Set(eventId.values());
  const missing = section.players.filter((p) => !inFile.has(p.id));
  if (missing.length > 0) throw new RangeError(`${from}: player(s) ${missing.map((p) => `${p.id} (${p.name})`).join(', ')} of section '${section.id}' are not in it`);
  const lastGame = Math.max(0, ...trf.players.flatMap((p) => p.rounds.flatMap((e, i) => (e.opponent !== null ? [i + 1] : []))));
  if (lastGame >= round) throw new RangeError(`${from} has the games of round ${lastGame} already: it is the record for round ${lastGame + 1}, not round ${round}`);
  if (lastGame < round - 1) throw new RangeError(`${from} has games up to round ${lastGame} only: round ${round} is paired from the results of rounds 1..${round - 1}`);
  const imported = resultsFromTrf(text, section, round, from, 'console start');
  let record: SectionRecord = emptyRecord;
  for (const g of imported.games) record = recordBoardResult(section, record, g.round, { white: g.white, black: g.black, result: g.result, ...(g.lessThanOneMove ? { lessThanOneMove: true } : {}) });
  const rounds = [...record.rounds];
  for (const bye of imported.byes) {
    const at = rounds.findIndex((r) => r.round === bye.round);
    const existing = at >= 0 ? rounds[at]! : { round: bye.round, games: [] };
    const next = { ...existing, byes: [...(existing.byes ?? []), { player: bye.player, kind: bye.kind }] };
    if (at >= 0) rounds[at] = next;
    else rounds.push(next);
  }
  record = { ...record, rounds: rounds.sort((a, b) => a.round - b.round) };
  // Round N's column holds what the previous console knew of round N before it was played: a half-point
  // bye asked for in advance (H) and, once round N was published there, its pairing-allocated bye (U).
  const requestedByes: ByeRequest[] = [];
  let pab: number | null = null;
  for (const p of trf.players) {
    const entry = p.rounds[round - 1];
    if (entry?.result === 'H') requestedByes.push({ player: eventId.get(p.id)!, round, kind: 'half' });
    if (entry?.result === 'U') pab = eventId.get(p.id)!;
  }
  return { record, requestedByes, pab };
}

function takePublished(section: EventSection, round: number, previous: Previous, from: string, json: string): LivePairing {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new RangeError(`${from}: not JSON (${(err as Error).message})`);
  }
  const parsed = publishedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`${from}: not a published round (GET /api/pairings?round=${round}): ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const published = parsed.data;
  if (published.section.id !== section.id) throw new RangeError(`${from}: a pairing of section '${published.section.id}', not '${section.id}'`);
  if (published.round !== round) throw new RangeError(`${from}: the pairing of round ${published.round}, not round ${round}`);
  if (published.status !== 'published') throw new RangeError(`${from}: round ${round} is '${published.status}' there, not published: publish it first`);
  const byId = new Map(section.players.map((p) => [p.id, p]));
  const seen = new Set<number>();
  for (const p of [...published.games.flatMap((g) => [g.white, g.black]), ...(published.bye ? [published.bye] : [])]) {
    const player = byId.get(p.id);
    if (!player) throw new RangeError(`${from}: player ${p.id} (${p.name}) is not in section '${section.id}'`);
    if (player.name !== p.name) throw new RangeError(`${from}: player ${p.id} is '${p.name}' there and '${player.name}' in the event`);
    if (seen.has(p.id)) throw new RangeError(`${from}: player ${p.id} (${p.name}) is paired twice in round ${round}`);
    seen.add(p.id);
  }
  const bye = published.bye?.id ?? null;
  if (previous.pab !== null && bye !== previous.pab) throw new RangeError(`${from}: the bye of round ${round} is ${bye === null ? 'nobody' : `player ${bye}`} there, player ${previous.pab} in the results file`);
  return { round, games: published.games.map((g) => ({ white: g.white.id, black: g.black.id })), bye, source: 'published', requestedByes: previous.requestedByes };
}
