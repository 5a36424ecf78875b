// SA Open 2009 end to end: two 11-round Swiss sections paired by the Dutch engine, played on
// simulated clocks; federation pairing ratings, a late registrant, an arbiter-assigned rating,
// a no-show withdrawn, a half-point bye, device sanctions, Median Buchholz / SB / TPR / PS,
// shared prize money, one prize per player and the team prize.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assignRating,
  awardPrizes,
  drawingOfLots,
  emptyRecord,
  findSection,
  pairingNumbers,
  pairSwissRound,
  pairingRating,
  presetEvent,
  recordNoShow,
  sanctionsLedger,
  exportTrf,
  parseTrf,
  sectionCrosstable,
  sectionStandings,
  sectionTrf,
  teamStandings,
  tiedForFirst,
  type ByeRequest,
  type EventPlayer,
  type SectionRecord,
} from '../../tournament/internal.ts';
import { playRound, type RoundScript } from './run-section.ts';

const event = presetEvent('sa-open-2009');
const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'zeitnot-sa-open-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = (command: string, ...args: string[]) => spawnSync(command, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
/** bbpPairings, where a developer built it beside the project (BBPPAIRINGS or BBP names it; never committed). */
const bbpPath = process.env['BBPPAIRINGS'] ?? process.env['BBP'];
const bbp = bbpPath && existsSync(bbpPath) ? bbpPath : undefined;

/** 1 and 2 by starting rank beat everyone else and draw each other; others by rating and lots. */
function scriptFor(sectionId: string, record: () => SectionRecord, leaders: readonly number[], absentees: ReadonlyMap<string, number>): RoundScript {
  const section = findSection(event, sectionId);
  const player = (id: number): EventPlayer => section.players.find((p) => p.id === id) as EventPlayer;
  return {
    score(white, black, round) {
      const w = leaders.includes(white);
      const b = leaders.includes(black);
      if (w && b) return 0.5;
      if (w) return 1;
      if (b) return 0;
      const lots = drawingOfLots(white * 131 + black * 17 + round)();
      if (lots < 0.3) return 0.5;
      const rw = pairingRating(section, player(white), record(), round) ?? 1500;
      const rb = pairingRating(section, player(black), record(), round) ?? 1500;
      const favourite = rw >= rb ? 1 : 0;
      return (lots < 0.8 ? favourite : 1 - favourite) as 1 | 0;
    },
    absent: (white, black, round) => {
      const who = absentees.get(String(round));
      return who === white ? 'white' : who === black ? 'black' : undefined;
    },
  };
}

interface Played {
  record: SectionRecord;
  pairings: { round: number; games: number; bye: number | null; notPaired: { player: number; why: string }[] }[];
  ratingOf23: (number | null)[];
}

function playSection(
  sectionId: string,
  options: { byes?: ByeRequest[]; noShow?: { round: number; player: number }; assign?: { player: number; rating: number } },
): Played {
  const section = findSection(event, sectionId);
  let record: SectionRecord = { ...emptyRecord };
  const absentees = new Map(options.noShow ? [[String(options.noShow.round), options.noShow.player]] : []);
  const script = scriptFor(sectionId, () => record, [1, 2], absentees);
  const pairings: Played['pairings'] = [];
  const ratingOf23: (number | null)[] = [];
  for (let round = 1; round <= 11; round += 1) {
    if (round === 5 && options.assign) {
      record = assignRating(section, record, section.players.find((p) => p.id === options.assign?.player) as EventPlayer, options.assign.rating, 4);
    }
    const p23 = section.players.find((p) => p.id === 23);
    if (p23) ratingOf23.push(pairingRating(section, p23, record, round));
    const pairing = pairSwissRound(event, sectionId, record, round, options.byes ?? []);
    pairings.push({ round, games: pairing.games.length, bye: pairing.bye, notPaired: [...pairing.notPaired] });
    const { results } = playRound(event, sectionId, round, script, pairing);
    const byes = [
      ...(pairing.bye === null ? [] : [{ player: pairing.bye, kind: 'pab' as const }]),
      ...(options.byes ?? []).filter((b) => b.round === round).map((b) => ({ player: b.player, kind: b.kind })),
    ];
    record = { ...record, rounds: [...record.rounds, { round, games: results, byes }] };
    if (options.noShow?.round === round) record = recordNoShow(section, record, options.noShow.player, round, false);
  }
  return { record, pairings, ratingOf23 };
}

describe('SA Open 2009 end to end', () => {
  const open = playSection('open', { byes: [{ player: 10, round: 5, kind: 'half' }], noShow: { round: 3, player: 20 }, assign: { player: 23, rating: 1900 } });
  const withIncidents: SectionRecord = {
    ...open.record,
    incidents: [
      { round: 6, player: 7, offence: 'device-noise' },
      { round: 8, player: 8, offence: 'device-noise-after-game' },
    ],
  };
  const section = findSection(event, 'open');

  it('pairs RSA players by national rating, others by FIDE rating; the unrated player gets the arbiter rating after round 4', () => {
    const rsa = section.players.find((p) => p.federation === 'RSA' && p.nationalRating !== undefined) as EventPlayer;
    const guest = section.players.find((p) => p.federation !== 'RSA') as EventPlayer;
    expect(pairingRating(section, rsa, emptyRecord, 1)).toBe(rsa.nationalRating);
    expect(pairingRating(section, guest, emptyRecord, 1)).toBe(guest.fideRating);
    expect(open.ratingOf23).toEqual([null, null, null, null, 1900, 1900, 1900, 1900, 1900, 1900, 1900]);
    expect(() => assignRating(section, emptyRecord, section.players[22] as EventPlayer, 1900, 3)).toThrow(/after round 4/);
  });

  it('leaves the late registrant out of round 1 and withdraws the no-show', () => {
    expect(open.pairings[0]?.notPaired).toEqual([{ player: 24, why: 'late-registration' }]);
    expect(open.pairings[1]?.notPaired).toEqual([]);
    expect(open.pairings[3]?.notPaired).toEqual([{ player: 20, why: 'withdrawn' }]);
    expect(open.pairings[4]?.notPaired).toEqual([
      { player: 20, why: 'withdrawn' },
      { player: 10, why: 'requested-bye' },
    ]);
    const crosstable = sectionCrosstable(event, 'open', open.record);
    const p24 = crosstable.players.find((p) => p.id === 24);
    expect(p24?.rounds[0]?.result).toBe('Z');
    const p20 = crosstable.players.find((p) => p.id === 20);
    expect(p20?.rounds[2]?.result).toBe('-');
    expect(p20?.rounds.slice(3).every((r) => r.result === 'Z')).toBe(true);
    expect(crosstable.players.find((p) => p.id === 10)?.rounds[4]?.result).toBe('H');
  });

  it('exports the section as TRF-16 numbered by pairing numbers that reads back with the same results', () => {
    const trf = sectionTrf(event, 'open', withIncidents);
    const text = exportTrf(trf);
    const numbers = pairingNumbers(event, 'open', withIncidents);
    expect(text).toMatch(/^092 Swiss$/m);
    expect(text).toMatch(/^XXR 11$/m);
    const back = parseTrf(text);
    expect(back.teams[0]).toMatchObject({ name: 'Club 1', playerIds: findSection(event, 'open').teams[0]!.members.map((id) => numbers.get(id)) });
    const eventId = new Map([...numbers].map(([id, number]) => [number, id]));
    expect(
      back.players.map((p) => [
        eventId.get(p.id),
        p.points,
        p.rounds.map((r) => (r.opponent === null ? 0 : eventId.get(r.opponent))).join(),
        p.rounds.map((r) => r.result).join(''),
      ]),
    ).toEqual(
      sectionCrosstable(event, 'open', withIncidents)
        .players.map((p) => [p.id, p.points, p.rounds.map((r) => r.opponent ?? 0).join(), p.rounds.map((r) => r.result).join('')])
        .sort((a, b) => numbers.get(a[0] as number)! - numbers.get(b[0] as number)!),
    );
    // No opponent is 0000 (bbpPairings refuses '   0'), never an event id.
    expect(text).not.toMatch(/ {3}0 [-wb] [-+=0-9A-Z]/);
    expect(text).toMatch(/0000 - [HUZ]/);
    expect(back.roundDates[0]).toBe('09/07/03');
  });

  it('never pairs the same two players twice, and gives every round a full board list', () => {
    const seen = new Set<string>();
    for (const round of open.record.rounds) {
      for (const g of round.games) {
        const key = [g.white, g.black].sort((a, b) => a - b).join('-');
        expect(seen.has(key), `round ${round.round} ${key}`).toBe(false);
        seen.add(key);
      }
    }
    expect(open.pairings.every((p) => p.games >= 10)).toBe(true);
  });

  it('forfeits a noisy device, takes a point off for noise after the game, ranks by BH-M1, SB, TPR, PS', () => {
    const crosstable = sectionCrosstable(event, 'open', withIncidents);
    const standings = sectionStandings(event, 'open', withIncidents);
    expect(Object.keys(standings[0]?.tiebreaks ?? {})).toEqual(['BH-M1', 'SB', 'TPR', 'PS']);
    const seven = crosstable.players.find((p) => p.id === 7);
    expect(seven?.rounds[5]?.result).toBe('-');
    const eight = crosstable.players.find((p) => p.id === 8);
    expect(standings.find((r) => r.id === 8)?.points).toBe((eight?.points ?? 0) - 1);
    expect(sanctionsLedger(section, withIncidents).entries.map((e) => e.sanction)).toEqual(['forfeit', 'point-deduction']);
    // The leaders drew each other and won everything else.
    expect(tiedForFirst(standings).sort()).toEqual([1, 2]);
    expect(standings[0]?.points).toBe(standings[1]?.points);
  });

  it('shares prize money equally among tied players, one prize each, and awards the team prize', () => {
    const standings = sectionStandings(event, 'open', withIncidents);
    const prizes = awardPrizes(section, standings);
    const places = section.prizes?.places ?? [];
    const shareOf = (id: number) => prizes.filter((p) => p.player === id).reduce((s, p) => s + p.amount, 0);
    expect(shareOf(1)).toBe((places[0]! + places[1]!) / 2);
    expect(shareOf(2)).toBe((places[0]! + places[1]!) / 2);
    // Every group tied on points shares the pooled prizes of the places it covers.
    let position = 1;
    for (let i = 0; i < standings.length;) {
      const group = standings.filter((r) => r.points === standings[i]!.points);
      const pool = group.reduce((s, _r, k) => s + (places[position - 1 + k] ?? 0), 0);
      const paid = group.reduce((s, r) => s + prizes.filter((p) => p.player === r.id && p.prize.startsWith('place')).reduce((a, p) => a + p.amount, 0), 0);
      if (!group.some((r) => prizes.some((p) => p.player === r.id && !p.prize.startsWith('place')))) expect(paid).toBeCloseTo(pool, 2);
      position += group.length;
      i += group.length;
    }
    expect(new Set(prizes.map((p) => p.player)).size).toBe(prizes.length);
    const special = prizes.find((p) => p.prize === 'Best under 2000');
    expect(special).toBeDefined();
    const winner = section.players.find((p) => p.id === special?.player);
    expect((winner?.fideRating ?? winner?.nationalRating ?? 0) <= 1999).toBe(true);

    const hort = awardPrizes(section, standings, { sharing: 'hort' });
    const [first, second] = standings;
    expect(hort.find((p) => p.player === first?.id)?.amount).toBe(places[0]! / 2 + (places[0]! + places[1]!) / 4);
    expect(hort.find((p) => p.player === second?.id)?.amount).toBe(places[1]! / 2 + (places[0]! + places[1]!) / 4);

    const teams = teamStandings(section, standings);
    for (const team of teams) {
      const members = section.teams.find((t) => t.name === team.team)?.members ?? [];
      expect(team.points).toBe(members.reduce((s, id) => s + (standings.find((r) => r.id === id)?.points ?? 0), 0));
    }
    expect(teams[0]!.points).toBeGreaterThanOrEqual(teams[1]!.points);
    expect(teams[0]!.prize + teams[1]!.prize).toBe(3000);
  });

  // Eleven Swiss rounds on simulated clocks: about 13 s of CPU, several times that on a loaded machine.
  let played: Played | undefined;
  const bSection = (): Played => (played ??= playSection('b', {}));

  it('plays the B section (game in 120 minutes, Article 10.2) to a tie for first', { timeout: 180_000 }, () => {
    const b = bSection();
    const standings = sectionStandings(event, 'b', b.record);
    expect(tiedForFirst(standings).sort()).toEqual([1, 2]);
    expect(standings.reduce((s, r) => s + r.points, 0)).toBe(
      b.record.rounds.reduce((s, r) => s + r.games.length + (r.byes?.filter((x) => x.kind === 'pab').length ?? 0), 0),
    );
    const prizes = awardPrizes(findSection(event, 'b'), standings);
    expect(prizes.filter((p) => p.player === 1 || p.player === 2).map((p) => p.amount)).toEqual([1600, 1600]);
  });

  // The exported TRF is what other programs check: every round the engine paired is the pairing
  // `zeitnot pair --dutch -c` makes again from the file, and the file's standings are the console's.
  const exported = (id: 'open' | 'b'): { file: string; record: SectionRecord } => {
    const record = id === 'open' ? open.record : bSection().record;
    const file = join(work, `${id}.trf`);
    writeFileSync(file, exportTrf(sectionTrf(event, id, record)));
    return { file, record };
  };

  it.each(['open', 'b'] as const)(
    '%s section: the exported TRF re-pairs every round as paired (zeitnot pair -c) and ranks as the console (zeitnot standings)',
    { timeout: 180_000 },
    (id) => {
      const { file, record } = exported(id);
      const check = run(process.execPath, 'bin/zeitnot.js', 'pair', '--dutch', file, '-c');
      expect(check.stdout + check.stderr).toBe('11 rounds checked: no differences\n');
      expect(check.status).toBe(0);
      const standings = run(process.execPath, 'bin/zeitnot.js', 'standings', file, '--preset', `sa-open-2009:${id}`, '--json');
      expect(standings.status, standings.stderr).toBe(0);
      const numbers = pairingNumbers(event, id, record);
      const rows = (JSON.parse(standings.stdout) as { rank: number; id: number; points: number; tiebreaks: Record<string, number> }[]).map((r) => [
        r.rank,
        r.id,
        r.points,
        r.tiebreaks,
      ]);
      expect(rows).toEqual(sectionStandings(event, id, record).map((r) => [r.rank, numbers.get(r.id), r.points, r.tiebreaks]));
    },
  );

  it.skipIf(!bbp).each(['open', 'b'] as const)(
    '%s section: bbpPairings -c on the exported TRF reports no difference (skipped: set BBPPAIRINGS or BBP to a bbpPairings binary built beside the project)',
    { timeout: 180_000 },
    (id) => {
      const { file } = exported(id);
      // bbpPairings pairs individuals only and refuses a file with team lines (013, the team prize's).
      const individual = file.replace(/\.trf$/, '-individual.trf');
      writeFileSync(individual, exportTrf(sectionTrf(event, id, exported(id).record), { teams: false }));
      const check = run(bbp!, '--dutch', individual, '-c');
      expect(check.status, check.stdout + check.stderr).toBe(0);
      // One 'NAME: Round #N' line per round; a difference is listed under its round ('Checker pairings').
      const lines = check.stdout.split('\n').filter((l) => l.trim() !== '');
      expect(lines, check.stdout).toEqual(Array.from({ length: 11 }, (_, i) => `${id}-individual: Round #${i + 1}`));
    },
  );
});
