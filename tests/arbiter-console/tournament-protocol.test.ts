// The tournament desk's WebSocket commands: validated with zod like the clock commands, refused with
// the field named, and told apart from clock commands by their type.
import { describe, expect, it } from 'vitest';
import { isTournamentCommand, parseClientMessage, type ConsoleCommand } from '../../arbiter-console/internal.ts';

const command = (c: unknown) => JSON.stringify({ type: 'command', id: 'c1', command: c });

describe('tournament commands', () => {
  it('accepts every documented command', () => {
    const good: ConsoleCommand[] = [
      { type: 'enterResult', round: 3, white: 1, black: 10, result: '1/2-1/2', reason: 'scoresheets signed' },
      { type: 'enterResult', round: 1, white: 2, black: 9, result: '+--', reason: 'Art. 6.7.1 default time' },
      { type: 'confirmResult', round: 1, white: 1, black: 4 },
      { type: 'pairNextRound' },
      { type: 'swapColours', board: 2, reason: 'C.04.2 D: colour allocation corrected' },
      { type: 'exchangeOpponents', board: 1, otherBoard: 3, reason: 'family members (forbidden pair)' },
      { type: 'discardDraft', reason: 'a withdrawal came in' },
      { type: 'publishRound' },
      { type: 'startPlayoff' },
      { type: 'playoffResult', game: 's1.1.1', result: '0-1' },
      { type: 'decidePlayoff', winner: 3, reason: 'five tied: Armageddon between the two best on tie-breaks' },
      {
        type: 'setPlayoffFormat',
        format: {
          cut: { to: 4, tiebreaks: ['KS', 'SB'] },
          stages: [
            { kind: 'knockout', games: 2, timeControl: '600+5', onTie: 'next-stage' },
            { kind: 'armageddon', games: 1, timeControl: 'W300-B240', onTie: 'next-stage' },
          ],
        },
        reason: 'five tied: agreed with the Saint Louis Chess Club',
      },
      { type: 'recordIncident', round: 2, player: 7, offence: 'electronic-device' },
      { type: 'requestBye', round: 4, player: 12, kind: 'half', reason: 'asked in writing before round 1' },
      { type: 'withdrawPlayer', player: 12, fromRound: 5, reason: 'ill' },
      { type: 'recordIncident', round: 2, player: 7, offence: 'late-arrival', note: 'arrived 10 min late' },
      { type: 'recordNoShow', round: 3, player: 9, noNotification: true, reason: 'no message by the end of the default time' },
      { type: 'assignRating', player: 23, rating: 1900, reason: 'after round 4' },
      { type: 'lodgeAppeal', round: 2, player: 5, against: 'claim of a threefold repetition refused', fee: 200 },
      { type: 'lodgeAppeal', section: 'kutxa', round: 2, player: 5, against: 'the clocks were not stopped' },
      { type: 'decideAppeal', appeal: 'A1', upheld: true, committee: [{ name: 'IA Chair' }, { section: 'b', player: 1 }], reason: 'the claim was correct' },
    ];
    for (const c of good) {
      const parsed = parseClientMessage(command(c));
      expect(parsed).toEqual({ ok: true, message: { type: 'command', id: 'c1', command: c } });
      expect(isTournamentCommand(c)).toBe(true);
    }
    expect(isTournamentCommand({ type: 'pause', board: '1', reason: 'r' })).toBe(false);
    expect(isTournamentCommand({ type: 'result', board: '1', result: '1-0', termination: 'mate' })).toBe(false);
  });

  it('refuses bad commands and names the field', () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'enterResult', round: 1, white: 1, black: 2, result: '1-0' }, /command\.reason/],
      [{ type: 'enterResult', round: 0, white: 1, black: 2, result: '1-0', reason: 'r' }, /command\.round/],
      [{ type: 'enterResult', round: 1, white: 1.5, black: 2, result: '1-0', reason: 'r' }, /command\.white/],
      [{ type: 'enterResult', round: 1, white: 1, black: 2, result: '2-0', reason: 'r' }, /command\.result/],
      [{ type: 'confirmResult', round: 1, white: 1 }, /command\.black/],
      [{ type: 'swapColours', board: 1, reason: '  ' }, /reason is required/],
      [{ type: 'exchangeOpponents', board: 2, otherBoard: 2, reason: 'r' }, /command\.otherBoard: two different boards are needed/],
      [{ type: 'pairNextRound', round: 4 }, /round/],
      [{ type: 'playoffResult', game: '', result: '1-0' }, /command\.game/],
      [{ type: 'recordIncident', round: 1, player: 3, offence: 'rudeness' }, /command\.offence/],
      [{ type: 'publishRound', extra: true }, /extra/],
      [{ type: 'requestBye', round: 4, player: 12, kind: 'full', reason: 'r' }, /command\.kind/],
      [{ type: 'withdrawPlayer', player: 12, reason: 'r' }, /command\.fromRound/],
      [{ type: 'recordNoShow', round: 3, player: 9, reason: 'r' }, /command\.noNotification/],
      [{ type: 'assignRating', player: 23, rating: 19000, reason: 'r' }, /command\.rating/],
      [{ type: 'lodgeAppeal', round: 2, player: 5, against: ' ' }, /command\.against: say which decision is appealed/],
      [{ type: 'decideAppeal', appeal: 'first', upheld: true, committee: [{ name: 'X' }], reason: 'r' }, /command\.appeal: an appeal of the log/],
      [{ type: 'decideAppeal', appeal: 'A1', upheld: true, committee: [], reason: 'r' }, /command\.committee/],
      [{ type: 'setPlayoffFormat', format: { stages: [] }, reason: 'r' }, /command\.format\.stages/],
      [
        { type: 'setPlayoffFormat', format: { stages: [{ kind: 'swiss', games: 1, timeControl: '600', onTie: 'next-stage' }] }, reason: 'r' },
        /command\.format\.stages\.0\.kind/,
      ],
      [
        {
          type: 'setPlayoffFormat',
          format: { cut: { to: 1, tiebreaks: ['SB'] }, stages: [{ kind: 'knockout', games: 1, timeControl: '600', onTie: 'next-stage' }] },
          reason: 'r',
        },
        /command\.format\.cut\.to/,
      ],
    ];
    for (const [c, reason] of cases) {
      const parsed = parseClientMessage(command(c));
      expect(parsed.ok, JSON.stringify(c)).toBe(false);
      if (!parsed.ok) {
        expect(parsed.code).toBe('malformed');
        expect(parsed.reason, JSON.stringify(c)).toMatch(reason);
      }
    }
  });
});
