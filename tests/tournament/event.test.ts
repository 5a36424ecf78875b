import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EventFileError,
  emptyRecord,
  findSection,
  loadEvent,
  presetEvent,
  presetJson,
  presetNames,
  readEventFile,
  recordBoardResult,
  roundBoards,
  sectionCrosstable,
  withdrawalForfeits,
  type EventFieldError,
} from '../../tournament/internal.ts';

function errorsOf(run: () => unknown): EventFieldError[] {
  try {
    run();
  } catch (error) {
    if (error instanceof EventFileError) return [...error.errors];
    throw error;
  }
  throw new Error('expected an EventFileError');
}

describe('event files', () => {
  it.each(presetNames)('preset %s loads and survives a JSON round trip', (name) => {
    const event = presetEvent(name);
    expect(loadEvent(presetJson(name))).toEqual(event);
    expect(loadEvent(JSON.stringify(event))).toEqual(event);
  });

  it('encodes the regulations of each preset', () => {
    const cairns = presetEvent('cairns-cup-2019');
    const main = cairns.sections[0];
    expect(cairns.lawsEdition).toBe('L2018');
    expect(cairns.drawRule).toEqual({ minMoves: 30, appliesToPlayoffs: true });
    expect(main?.tiebreaks).toEqual(['DE', 'BPG', 'KS', 'SB', 'WON']);
    expect(main?.timeControl).toBe('40/5400+30:1800+30');
    expect(main?.defaultTimeMinutes).toBe(30);
    expect(main?.fines.map((f) => [f.offence, f.amount, f.sanction])).toEqual([
      ['late-arrival', 1000, 'none'],
      ['electronic-device', 1000, 'none'],
      ['device-noise', 1000, 'forfeit'],
    ]);
    expect(main?.prizes?.withdrawnOrForfeitedExcluded).toBe(true);
    const donostia = presetEvent('donostia-2009');
    expect(donostia.sections).toHaveLength(4);
    expect(donostia.appeals).toEqual({ deadlineMinutes: 60, after: 'round', committee: { members: 3, fromOtherSections: true } });
    expect(donostia.sections[0]?.schedule[0]).toBe('2009-07-07T16:30:00+02:00');
    expect(donostia.sections[2]?.schedule[0]).toBe('2009-07-07T17:00:00+02:00');
    expect(donostia.sections.every((s) => s.schedule[8] === '2009-07-16T16:00:00+02:00' && s.defaultTimeMinutes === 60)).toBe(true);
    const sa = presetEvent('sa-open-2009');
    const [open, b] = sa.sections;
    expect(open?.tiebreaks).toEqual(['BH-M1', 'SB', 'TPR', 'PS']);
    expect(open?.pairingRating).toEqual({ default: 'fide', byFederation: { RSA: 'national' } });
    expect(open?.quickplayFinish).toBe(false);
    expect(b?.quickplayFinish).toBe(true);
    expect(b?.timeControl).toBe('7200');
    expect(sa.appeals).toEqual({ deadlineMinutes: 30, after: 'game', fee: 200 });
    expect(open?.prizes?.team?.members).toBe(4);
  });

  it('names every wrong field', () => {
    const event = JSON.parse(presetJson('cairns-cup-2019'));
    event.lawsEdition = 'L1999';
    event.sections[0].players[3].fideRating = 'high';
    event.sections[0].tiebreaks.push('XYZ');
    event.sections[0].timeControl = '';
    const errors = errorsOf(() => loadEvent(event));
    expect(errors.map((e) => e.path).sort()).toEqual(
      ['lawsEdition', 'sections.0.players.3.fideRating', 'sections.0.tiebreaks.5', 'sections.0.timeControl'].sort(),
    );
  });

  it('cross-checks what the schema cannot: schedule, duplicate ids, entry limits, teams', () => {
    const event = JSON.parse(presetJson('sa-open-2009'));
    event.sections[0].schedule.pop();
    event.sections[0].players[1].id = 1;
    event.sections[1].players[0].nationalRating = 1600;
    event.sections[1].players[1].birthDate = '1980-01-01';
    event.sections[0].teams[0].members.push(99);
    const errors = errorsOf(() => loadEvent(event));
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: 'sections.0.schedule', message: 'has 10 start times for 11 rounds' },
        { path: 'sections.0.players.1.id', message: 'pairing number 1 is used twice' },
        { path: 'sections.1.players.0', message: 'rating 1600 is not below the section limit 1500' },
        { path: 'sections.1.players.1.birthDate', message: 'is 18 or older on 2009-07-03' },
        { path: 'sections.0.teams.0.members.4', message: 'no player 99' },
      ]),
    );
  });

  it('rejects text that is not JSON and checks time controls through the injected parser', () => {
    expect(errorsOf(() => loadEvent('{oops'))[0]?.path).toBe('');
    const errors = errorsOf(() => loadEvent(presetJson('donostia-2009'), { checkTimeControl: (text) => (text === '300' ? 'unsupported here' : null) }));
    expect(errors.some((e) => e.path === 'sections.0.playoff.bySize.2.0.timeControl' && /unsupported here/.test(e.message))).toBe(true);
  });

  it("gives a round's boards with clock setting, default time and start", () => {
    const event = presetEvent('cairns-cup-2019');
    const round2 = roundBoards(event, 'main', 2);
    expect(round2.boards.map((b) => [b.board, b.white.id, b.black.id])).toEqual([
      [1, 10, 6],
      [2, 7, 5],
      [3, 8, 4],
      [4, 9, 3],
      [5, 1, 2],
    ]);
    const first = round2.boards[0];
    expect(first?.timeControl).toBe('40/5400+30:1800+30');
    expect(first?.scheduledStart).toBe('2019-02-07T13:00:00-06:00');
    expect(first?.scheduledStartMs).toBe(Date.UTC(2019, 1, 7, 19, 0, 0));
    expect(first?.defaultTimeEndsMs).toBe(Date.UTC(2019, 1, 7, 19, 30, 0));
    expect(round2.bye).toBeNull();
    expect(() => roundBoards(event, 'main', 10)).toThrow(/rounds 1..9/);
    const sa = presetEvent('sa-open-2009');
    expect(() => roundBoards(sa, 'open', 1)).toThrow(/pairings from the pairing engine/);
    const swiss = roundBoards(sa, 'b', 1, { games: [{ white: 1, black: 7 }], bye: 12 });
    expect(swiss.boards[0]?.black.name).toBe('B player 07');
    expect(swiss.bye?.id).toBe(12);
  });
});

describe('event time controls', () => {
  it('are checked by the clock engine parser by default, naming the field', () => {
    const event = JSON.parse(presetJson('cairns-cup-2019'));
    event.sections[0].timeControl = '90/40';
    event.sections[0].playoff.bySize['2'][1].timeControl = '10 minutes';
    const errors = errorsOf(() => loadEvent(event));
    expect(errors.map((e) => e.path)).toEqual(['sections.0.timeControl', 'sections.0.playoff.bySize.2.1.timeControl']);
    expect(errors[0]?.message).toMatch(/^bad time control '90\/40': .*position 1/);
  });
});

describe('result entry', () => {
  it('enters, corrects and rejects board results', () => {
    const event = presetEvent('cairns-cup-2019');
    const section = findSection(event, 'main');
    let record = recordBoardResult(section, emptyRecord, 1, { white: 1, black: 10, result: '1-0' });
    record = recordBoardResult(section, record, 1, { white: 1, black: 10, result: '1/2-1/2', termination: 'arbiter correction' });
    expect(record.rounds[0]?.games).toEqual([{ white: 1, black: 10, result: '1/2-1/2', termination: 'arbiter correction' }]);
    expect(() => recordBoardResult(section, record, 1, { white: 10, black: 2, result: '0-1' })).toThrow(/player 10 already has a result \(1-10\)/);
    expect(() => recordBoardResult(section, record, 1, { white: 11, black: 2, result: '0-1' })).toThrow(/no player 11/);
    const crosstable = sectionCrosstable(event, 'main', record);
    expect(crosstable.players[0]?.rounds[0]).toEqual({ opponent: 10, colour: 'w', result: '=' });
    expect(crosstable.players[1]?.rounds[0]).toEqual({ opponent: null, colour: null, result: 'Z' });
  });
});

describe('withdrawals in a round robin and event files on disk', () => {
  it('scores the games against a withdrawn player as forfeits', () => {
    const event = presetEvent('cairns-cup-2019');
    const record = { ...emptyRecord, withdrawals: [{ player: 10, fromRound: 2, reason: 'withdrew' as const }] };
    expect(withdrawalForfeits(event, 'main', record, 1)).toEqual([]);
    expect(withdrawalForfeits(event, 'main', record, 2)).toEqual([{ white: 10, black: 6, result: '--+', termination: 'forfeit: withdrawn' }]);
    expect(withdrawalForfeits(event, 'main', record, 3)).toEqual([{ white: 2, black: 10, result: '+--', termination: 'forfeit: withdrawn' }]);
  });

  it('reads an event file from disk and names a missing one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-event-'));
    try {
      writeFileSync(join(dir, 'sa.json'), presetJson('sa-open-2009'));
      expect((await readEventFile(join(dir, 'sa.json'))).id).toBe('sa-open-2009');
      await expect(readEventFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read .*missing.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
