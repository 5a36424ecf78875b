// Issue 12, TRF: files refused or understood. Empty, binary and UTF-16 files exit 3; every problem at
// line:column; tag 162 (TRF-2026 scoring) as bbpPairings reads it; 092/192 name the pairing system for
// `standings`; `trf check` and `trf format`; the console's own pairing TRF with a half-point bye; pairing
// numbers frozen after round 4. The bbpPairings outputs are committed (fixtures/trf/README.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  assignRating,
  decodeTrf,
  emptyRecord,
  exportTrf,
  findSection,
  formatPairing,
  pairTrf,
  pairingSystem,
  pairingTrf,
  parseTrf,
  presetEvent,
  readTrf,
  startingRankOrder,
  tiebreakContext,
  TrfError,
  type EventPlayer,
} from '../../tournament/internal.ts';

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'fixtures', 'trf');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'zeitnot-trf-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const zeitnot = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin', 'zeitnot.js'), ...args], { encoding: 'utf8', timeout: 60_000 });
const file = (name: string, contents: string | Uint8Array): string => {
  const path = join(work, name);
  writeFileSync(path, contents);
  return path;
};
/** bbpPairings, where a developer built it beside the project (BBPPAIRINGS=path); CI uses the committed outputs. */
const bbp = process.env['BBPPAIRINGS'] && existsSync(process.env['BBPPAIRINGS']) ? process.env['BBPPAIRINGS'] : undefined;
const decodeError = (bytes: Uint8Array): TrfError => {
  try {
    decodeTrf(bytes);
  } catch (e) {
    if (e instanceof TrfError) return e;
    throw e;
  }
  throw new Error('decoded');
};

describe('what is not a TRF text is refused, with exit 3', () => {
  const utf16 = (text: string, bom: boolean) => {
    const body = Buffer.from(text, 'utf16le');
    return bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
  };
  const player = '001    1      Alpha, A                          2000                             0.0';
  it.each([
    ['an empty file', new Uint8Array(), 1, 1, /the file is empty/],
    ['blank lines only', Buffer.from('\n  \r\n\n'), 1, 1, /the file is empty/],
    ['UTF-16 with a byte-order mark', utf16(player, true), 1, 1, /UTF-16 \(byte-order mark\)/],
    ['UTF-16 without one', utf16(player, false), 1, 1, /UTF-16 \(a NUL byte every other byte\)/],
    ['binary data', Buffer.concat([Buffer.from(`${player}\n001  `), Buffer.from([0x02, 0x8f, 0x00, 0x41])]), 2, 6, /not a text file: control byte 0x02/],
  ])('%s: refused at its line and column', (_what, bytes, line, column, message) => {
    const e = decodeError(bytes);
    expect([e.line, e.column]).toEqual([line, column]);
    expect(e.problem).toMatch(message);
  });

  it('Latin-1 text is read as Latin-1, UTF-8 as UTF-8', () => {
    expect(decodeTrf(Buffer.from('012 Müller Open\n', 'latin1'))).toBe('012 Müller Open\n');
    expect(decodeTrf(Buffer.from('012 Müller Open\n', 'utf8'))).toBe('012 Müller Open\n');
  });

  it('standings, pair and trf check exit 3 with one line naming line:column', () => {
    const empty = file('empty.trf', '');
    const wide = file('utf16.trf', utf16(player, true));
    const binary = file('binary.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]));
    for (const [args, expected] of [
      [['standings', empty], /^zeitnot standings: .*empty\.trf: TRF line 1:1: the file is empty$/],
      [['standings', wide], /^zeitnot standings: .*utf16\.trf: TRF line 1:1: the file is UTF-16/],
      [['pair', '--dutch', binary, '-p'], /^zeitnot pair: invalid input: TRF line 1:5: not a text file/],
      [['trf', 'check', empty], /empty\.trf:1:1: the file is empty$/],
      [['trf', 'check', wide], /utf16\.trf:1:1: the file is UTF-16/],
    ] as const) {
      const run = zeitnot(...args);
      expect(run.status, args.join(' ')).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(expected)]);
    }
  });

  it('a file with header lines but no player is refused too', () => {
    expect(() => parseTrf('012 Nobody came\n')).toThrow(/^TRF line 1:1: no player \(001\) line$/);
  });
});

describe('every problem, at line:column', () => {
  const good = fixture('dutch-8-players-7-rounds.trf').split('\r');
  const broken = [...good];
  broken[1] = broken[1]!.replace(' 6.5 ', ' 9.5 '); // line 2: points (column 81)
  broken[4] = broken[4]!.slice(0, 98) + '?' + broken[4]!.slice(99); // line 5: round 1 result (column 99)
  const text = broken.join('\n');

  it('readTrf reports them all, each with its column', () => {
    const { problems } = readTrf(text);
    // Player 4's line cannot be read: his opponents' lines are not reported again for it.
    expect(problems.map((p) => `${p.line}:${p.column}: ${p.problem}`)).toEqual([
      "5:99: round 1: unknown result code '?'",
      '2:81: player 1 (Test0001 Player0001) has 9.5 points but the results add up to 6.5',
    ]);
  });

  it('zeitnot trf check prints every one as FILE:LINE:COLUMN and exits 3; a good file exits 0', () => {
    const run = zeitnot('trf', 'check', file('broken.trf', text));
    expect(run.status).toBe(3);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/broken\.trf:\d+:\d+: /);
    const ok = zeitnot('trf', 'check', join(fixtures, 'dutch-8-players-7-rounds.trf'));
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/valid TRF, 8 players, 7 rounds/);
  });
});

describe('tag 162 (TRF-2026 scoring), as bbpPairings reads it', () => {
  it("3-1-0 with a 1-point PAB: the points add up and the next round is bbpPairings' pairing", () => {
    const t = parseTrf(fixture('scoring-162-after-round-4.trf'));
    expect(t.scoring).toMatchObject({ win: 3, draw: 1, loss: 0, pairingBye: 1, forfeitWin: 3, zeroBye: 0 });
    expect(formatPairing(pairTrf(t)).trim()).toBe(fixture('scoring-162-after-round-4.bbp-next').replace(/\r\n?/g, '\n').trim());
  });

  it('a whole bbpPairings tournament under 3-1-0 is reproduced round by round (zeitnot pair -c)', () => {
    const run = zeitnot('pair', '--dutch', join(fixtures, 'scoring-162-3-1-0.trf'), '-c');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/7 rounds checked: no differences/);
  });

  it('a result code bbpPairings does not read is refused at its column', () => {
    expect(() => parseTrf('162  W 3.0    X 1.0\n001    1      A                                                               0.0\n')).toThrow(
      /^TRF line 1:15: tag 162: result code 'X' is not one of W D L Z P$/,
    );
    expect(() => parseTrf('162  W 3.x\n001    1      A                                                               0.0\n')).toThrow(
      /^TRF line 1:7: points for 'W' '3.x' is not a number$/,
    );
  });
});

describe('the TRF-2026 records bbpPairings reads: 240 byes, 250 accelerations, 260 forbidden pairs', () => {
  // Each file is scoring-162-after-round-4.trf plus one record; bbpPairings' pairing differs from the
  // plain file's in each case (6-3 on board 1, 4-11 on board 2).
  for (const name of ['record-240-byes', 'record-250-acceleration', 'record-260-forbidden']) {
    it(`${name}: the next round is bbpPairings' pairing`, () => {
      const expected = fixture(`${name}.bbp-next`).replace(/\r\n?/g, '\n').trim();
      expect(expected).not.toBe(fixture('scoring-162-after-round-4.bbp-next').replace(/\r\n?/g, '\n').trim());
      expect(formatPairing(pairTrf(parseTrf(fixture(`${name}.trf`)))).trim()).toBe(expected);
    });
  }
});

describe('standings honour the pairing system the file names (092, 192)', () => {
  it('an 8-player 7-round Dutch Swiss (092 FIDE_DUTCH_2025) is a Swiss, not a round robin', () => {
    const t = parseTrf(fixture('dutch-8-players-7-rounds.trf'));
    expect(pairingSystem(t)).toBe('swiss');
    expect(tiebreakContext(t).roundRobin).toBe(false);
    // Without the tag its shape (8 players, 7 rounds) would pass for a round robin.
    expect(tiebreakContext({ ...t, type: undefined }).roundRobin).toBe(true);
    const run = zeitnot('standings', join(fixtures, 'dutch-8-players-7-rounds.trf'));
    expect(run.stdout.split('\n')[0]).toMatch(/Pts\s+BH-C1\s+BH\s+SB$/);
  });

  it('reads the system from 192 first, then 092 as TRF-16 free text', () => {
    const none = { type: undefined, otherLines: [] };
    expect(pairingSystem({ ...none, type: 'Round robin (Berger)' })).toBe('round-robin');
    expect(pairingSystem({ ...none, type: 'Swiss Dutch' })).toBe('swiss');
    expect(pairingSystem({ type: 'Individual', otherLines: [{ code: '192', text: '192 FIDE_BURSTEIN' }] })).toBe('swiss');
    expect(pairingSystem({ ...none, type: 'Individual' })).toBeUndefined();
  });
});

describe('zeitnot trf format', () => {
  for (const name of ['dutch-8-players-7-rounds', 'scoring-162-3-1-0']) {
    it(`${name}: written back as TRF-16, read the same by zeitnot, by zeitnot pair -c and by bbpPairings`, () => {
      const out = join(work, `${name}.formatted.trf`);
      const run = zeitnot('trf', 'format', join(fixtures, `${name}.trf`), '-o', out);
      expect(run.status).toBe(0);
      const original = parseTrf(fixture(`${name}.trf`));
      const formatted = parseTrf(readFileSync(out, 'utf8'));
      expect(formatted.players).toEqual(original.players);
      expect(formatted.scoring).toEqual(original.scoring);
      const check = (path: string) => zeitnot('pair', '--dutch', path, '-c').stdout;
      expect(check(out)).toBe(check(join(fixtures, `${name}.trf`)));
      // bbpPairings -c on the original, as committed; on the formatted file it must say the same.
      const recorded = fixture(`${name}.bbp-check`).replaceAll(`${name}:`, 'FILE:');
      expect(recorded).toMatch(/FILE: Round #7/);
      if (bbp) {
        const live = spawnSync(bbp, ['--dutch', out, '-c'], { encoding: 'utf8' });
        expect(live.status).toBe(0);
        expect(live.stdout.replaceAll(`${name}.formatted:`, 'FILE:')).toBe(recorded);
      }
    });
  }
});

describe("the console's pairing TRF", () => {
  const event = presetEvent('sa-open-2009');
  const section = findSection(event, 'open');

  it('with a half-point bye in the round to pair reads back (its points include the bye)', () => {
    const { trf, startingRanks } = pairingTrf(event, 'open', emptyRecord, 1, [{ player: 10, round: 1, kind: 'half' }]);
    const rank = startingRanks.indexOf(10) + 1;
    const again = parseTrf(exportTrf(trf));
    const player = again.players.find((p) => p.id === rank)!;
    expect(player.rounds).toEqual([{ opponent: null, colour: null, result: 'H' }]);
    expect(player.points).toBe(0.5);
    expect(formatPairing(pairTrf(again))).toBe(formatPairing(pairTrf(trf)));
  });

  it('keeps the pairing numbers of round 4 from round 5 on (C.04.2, VCL.09), whatever rating is assigned later', () => {
    const unrated = section.players.find((p) => p.fideRating === undefined && p.nationalRating === undefined) as EventPlayer;
    const record = assignRating(section, emptyRecord, unrated, 2700, 4);
    const order = (round: number) => startingRankOrder(event, 'open', record, round).map((p) => p.id);
    for (const round of [5, 8, 11]) expect(order(round)).toEqual(order(4));
    // The assigned rating is still the one the pairing file carries from round 5.
    const { trf, startingRanks } = pairingTrf(event, 'open', record, 5);
    expect(trf.players.find((p) => p.id === startingRanks.indexOf(unrated.id) + 1)?.rating).toBe(2700);
  });
});
