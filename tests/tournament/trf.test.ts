import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportTrf, parseTrf, TrfError, totalPoints, type TrfTournament } from '../../tournament/internal.ts';

const oracle = (name: string): string => readFileSync(new URL(`../fixtures/oracles/tiebreaks/fide_held_exercises/${name}.trf`, import.meta.url), 'utf8');

describe('TRF-16', () => {
  it.each(['held_swiss_5', 'held_swiss_9', 'held_round_robin'])('%s round-trips byte for byte', (name) => {
    const text = oracle(name);
    const parsed = parseTrf(text);
    // FIDE's exercises write a round without an opponent as '   0'; zeitnot writes 0000 unless asked.
    expect(exportTrf(parsed, { noOpponent: '   0' })).toBe(text);
    expect(exportTrf(parsed)).toBe(text.replace(/ {3}0 - /g, '0000 - '));
    expect(parseTrf(exportTrf(parsed, { lineEnding: '\r' }))).toEqual(parsed);
  });

  it('reads the player line columns and the round codes', () => {
    const t = parseTrf(oracle('held_swiss_5'));
    expect(t.name).toBe('FIDE C.07 2023 Tie-Break Exercises');
    expect(t.startDate).toBe('2024-08-01');
    expect(t.playerCount).toBe(16);
    expect(t.totalRounds).toBe(5);
    const david = t.players.find((p) => p.id === 4);
    expect(david).toMatchObject({ name: 'David', rating: 2050, federation: 'NOR', fideId: '0', birthDate: '1990/01/01', points: 3.5, rank: 4, sex: 'm' });
    expect(david?.rounds[1]).toEqual({ opponent: null, colour: null, result: 'H' });
    expect(david?.rounds[0]).toEqual({ opponent: 12, colour: 'b', result: '1' });
    const nick = t.players.find((p) => p.id === 12);
    expect(nick?.rounds.map((r) => r.result)).toEqual(['0', 'U', '+', 'Z', 'Z']);
    expect(nick && totalPoints(nick)).toBe(2);
  });

  it('reads and writes headers, XXC, XXS scoring, teams and keeps unknown lines', () => {
    const text = [
      '012 Test Open',
      '022 Cape Town',
      '032 RSA',
      '042 2009/07/03',
      '052 2009/07/11',
      '062 2',
      '072 2',
      '082 1',
      '092 Individual: Swiss-System',
      '102 IA Somebody',
      '112 FA One',
      '112 FA Two',
      '122 90 min + 30 sec',
      '132                                                                                        09/07/03  09/07/04',
      'XXR 11',
      'XXC white1 rank',
      'XXS WW=3 BW=3 WD=1 BD=1',
      'XXP 1 2',
      '001    1 m GM Example, Player                   2650 RSA    12345678 1990/05/17  4.0    1     2 w 1     2 b =',
      '001    2 w    Other, One                        2400 ENG           0             1.0    2     1 b 0     1 w =',
      '013 Cape Town Chess Club            1    2',
      '',
    ].join('\n');
    const t = parseTrf(text);
    expect(t.city).toBe('Cape Town');
    expect(t.deputyArbiters).toEqual(['FA One', 'FA Two']);
    expect(t.roundDates).toEqual(['09/07/03', '09/07/04']);
    expect(t.configuration).toEqual(['white1', 'rank']);
    expect(t.scoring.win).toBe(3);
    expect(t.scoring.draw).toBe(1);
    expect(t.teams).toEqual([{ name: 'Cape Town Chess Club', playerIds: [1, 2] }]);
    expect(t.otherLines).toEqual([{ code: 'XXP', text: 'XXP 1 2' }]);
    expect(t.players[0]?.title).toBe('GM');
    expect(t.players[1]?.sex).toBe('w');
    const again = parseTrf(exportTrf(t));
    expect(again).toEqual(t);
    // For the pairing engines, which refuse team lines: the same file without 082 and 013.
    const individual = exportTrf(t, { teams: false });
    expect(individual.split('\n')).toEqual(
      exportTrf(t)
        .split('\n')
        .filter((l) => !/^(082|013) /.test(l)),
    );
  });

  const brokenScores = (): string =>
    oracle('held_round_robin').replace(
      '001    4 m    David                             2050 NOR           0 1990/01/01  1.5',
      '001    4 m    David                             2050 NOR           0 1990/01/01  2.5',
    );

  it('rejects a score that does not match the results, naming the line', () => {
    expect(() => parseTrf(brokenScores())).toThrow(TrfError);
    expect(() => parseTrf(brokenScores())).toThrow(/^TRF line 8:81: player 4 \(David\) has 2.5 points but the results add up to 1.5$/);
  });

  it('rejects asymmetric games, unknown opponents and bad codes with the line', () => {
    const rr = oracle('held_round_robin');
    // Player 1's round 1 result changed to a win against 5, who still draws.
    const oneSided = rr
      .replace('     5 w =     2 w 1', '     5 w 1     2 w 1')
      .replace('2200 NOR           0 1990/01/01  3.5', '2200 NOR           0 1990/01/01  4.0');
    expect(() => parseTrf(oneSided)).toThrow(/TRF line 5:99: round 1: results '1' and '=' of players 1 and 5 do not match/);
    const unknown = rr.replace('     5 w =     2 w 1', '    17 w =     2 w 1');
    expect(() => parseTrf(unknown)).toThrow(/TRF line 5:92: round 1: opponent 17 has no 001 line/);
    const badCode = rr.replace('     5 w =     2 w 1', '     5 w ?     2 w 1');
    expect(() => parseTrf(badCode)).toThrow(/TRF line 5:99: round 1: unknown result code '\?'/);
    const duplicate = rr + rr.split('\n')[4] + '\n';
    expect(() => parseTrf(duplicate)).toThrow(/TRF line 11:5: starting rank 1 already used on line 5/);
  });

  it('reads blank slots after the last round anyone was paired in as no round, a blank slot before it as Z', () => {
    const text = oracle('held_swiss_5');
    const padded = text.replace(/^(001.*)$/gm, `$1${' '.repeat(45)}`);
    expect(padded).not.toBe(text);
    expect(parseTrf(padded)).toEqual(parseTrf(text));
    expect(parseTrf(padded).players.every((p) => p.rounds.length === 5)).toBe(true);
    const nickLine = '14 w +     0 - Z     0 - Z';
    expect(text).toContain(nickLine);
    const blankInside = parseTrf(padded.replace(nickLine, '14 w +               0 - Z'));
    expect(blankInside.players.find((p) => p.id === 12)?.rounds.map((r) => r.result)).toEqual(['0', 'U', '+', 'Z', 'Z']);
    // Nobody was paired after round 1: blank slots later are no rounds; 1's requested bye for round 2 stays.
    const line = (id: number, points: string, slots: string[]): string =>
      `001 ${String(id).padStart(4)}`.padEnd(80) + points.padStart(4) + ' '.repeat(7) + slots.join('  ');
    const cut = parseTrf(`${line(1, '1.5', ['   2 w 1', '   0 - H', '        '])}\n${line(2, '0.0', ['   1 b 0', '        ', '        ', '        '])}\n`);
    expect(cut.players.map((p) => p.rounds.map((r) => r.result))).toEqual([['1', 'H'], ['0']]);
  });

  it('is a typed model the pairing engine can build on', () => {
    const t: TrfTournament = parseTrf(oracle('held_swiss_9'));
    expect(t.players.every((p) => p.rounds.length === 9)).toBe(true);
  });

  it('reads a registration-time file (no rounds, blank points) and rejects two Whites in one game', () => {
    const registration = parseTrf('012 Entry list\n001    1 m    Someone, A                        2100 RSA     1234567\n');
    expect(registration.players[0]).toMatchObject({ id: 1, points: 0, rounds: [], rating: 2100, fideId: '1234567' });
    const rr = oracle('held_round_robin');
    const twoWhites = rr.replace(
      '001    5 m    Franck                            1950 NOR           0 1990/01/01  1.5    5     1 b =',
      '001    5 m    Franck                            1950 NOR           0 1990/01/01  1.5    5     1 w =',
    );
    expect(() => parseTrf(twoWhites)).toThrow(/TRF line 5:97: round 1: players 1 and 5 both have colour 'w'/);
  });
});
