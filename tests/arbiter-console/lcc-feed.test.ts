// The LiveChessCloud layout a relay reads (docs/console.md, "For broadcasters"): per section id, the
// tournament, each round's pairings and each game's moves with clock times, served like every feed
// (ETag, 304, compression). Checked on the SA Open's two sections, played over the console's own
// commands and a board's clock events, against the console's PGN read by chess.js; and, where a
// developer fetched it beside the project, by a real reader of the layout: lichess's pgn-mule
// (github.com/lichess-org/pgn-mule, src/source/lcc.ts, the relay proxy lichess runs), never committed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { Chess } from 'chess.js';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  manualSource,
  startConsole,
  type ManualSource,
  type RunningConsole,
  type LccGame,
  type LccRound,
  type LccTournament,
} from '../../arbiter-console/internal.ts';
import { findSection, loadEvent, presetJson } from '../../tournament/index.ts';
import { helloClient, sendCommand, type TestClient } from '../support/ws-client.ts';

/** pgn-mule's checkout, with what its lcc.ts imports (chessops 0.13, dayjs, request) installed in it or the folder above, e.g. /work/lcc-reader/pgn-mule. */
const READER = process.env['LCC_READER'];
const readerFile = READER ? join(READER, 'src', 'source', 'lcc.ts') : undefined;

let run: RunningConsole;
let source: ManualSource;
let chief: TestClient;
const dir = mkdtempSync(join(tmpdir(), 'zeitnot-lcc-'));
/** The SA Open 2009, its B section's top seed (board 1's White in round 1) named in the FIDE form "Surname, Given names". */
const event = (() => {
  const json = JSON.parse(presetJson('sa-open-2009')) as { sections: { id: string; players: { id: number; name: string }[] }[] };
  json.sections.find((s) => s.id === 'b')!.players.find((p) => p.id === 1)!.name = 'Tshabalala, Thandi Grace';
  return loadEvent(json);
})();
/** A name as LiveChess's readers join its parts: "Surname, Given" comes back "Given Surname". */
const joined = (name: string): string => (name.includes(',') ? `${name.slice(name.indexOf(',') + 1).trim()} ${name.slice(0, name.indexOf(',')).trim()}` : name);
const START = 60_000;

interface Got {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}
function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
  const { port } = new URL(run.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
const json = async <T>(path: string): Promise<T> => JSON.parse(String((await get(path)).body)) as T;

const command = (c: { readonly type: string; readonly [field: string]: unknown }) => sendCommand(chief, c);

/** A board's move as its e-board reports it: the move read, then the clock press, at `at`. */
function move(board: string, side: 'white' | 'black', san: string, at: number): void {
  source.set(at);
  const by = { kind: 'device', deviceId: `dgt-${board}` } as const;
  run.hall.record({ kind: 'clock', board, event: { type: 'boardMove', side, san, at, by } });
  run.hall.record({ kind: 'clock', board, event: { type: 'press', side, at, by } });
}

/** The hall board of a section's board `n` in round 1. */
const hallBoard = (section: string, n: number): string => run.desks.get(section)!.hallBoardOf(1, ...whiteBlack(section, n))!;
const whiteBlack = (section: string, n: number): [number, number] => {
  const g = run.desks.get(section)!.pairingOf(1)!.games[n - 1]!;
  return [g.white, g.black];
};

beforeAll(async () => {
  source = manualSource(0);
  run = await startConsole({
    dataDir: join(dir, 'data'),
    port: 0,
    noPage: true,
    event,
    source,
    // A relay reads the tournament, the round and each game in turn: more than the default burst for a section of 50 boards.
    server: { httpRate: { perSecond: 1000, burst: 1000 } },
  });
  chief = await helloClient(run.url, { role: 'arbiter', token: run.newToken, name: 'IA Chief' });
  for (const section of ['open', 'b']) {
    expect(await command({ type: 'pairNextRound', section })).toMatchObject({ type: 'ack' });
    expect(await command({ type: 'publishRound', section })).toMatchObject({ type: 'ack' });
  }
  expect(await command({ type: 'arriveAll' })).toMatchObject({ type: 'ack' });
  source.set(START);
  for (const section of ['open', 'b']) expect(await command({ type: 'startAll', section })).toMatchObject({ type: 'ack' });
  // Open board 1: four plies, then Black resigns. Open board 2: two plies, on. B board 1: one ply, then White resigns.
  const [o1, o2] = [hallBoard('open', 1), hallBoard('open', 2)];
  move(o2, 'white', 'd4', START + 5_000);
  move(o1, 'white', 'e4', START + 10_000);
  move(o1, 'black', 'e5', START + 25_500);
  move(o1, 'white', 'Nf3', START + 40_000);
  move(o2, 'black', 'Nf6', START + 65_000);
  move(o1, 'black', 'Nc6', START + 100_999);
  expect(await command({ type: 'result', board: o1, result: '1-0', termination: 'Black resigned' })).toMatchObject({ type: 'ack' });
  source.set(START + 120_000);
  const b1 = hallBoard('b', 1);
  move(b1, 'white', 'c4', START + 130_000);
  expect(await command({ type: 'result', board: b1, result: '0-1', termination: 'White resigned' })).toMatchObject({ type: 'ack' });
}, 60_000);

afterAll(async () => {
  chief?.ws.close();
  await run?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Each game of a PGN file as chess.js reads it: tags, SAN moves, and each move's comment. */
function gamesOf(pgn: string): { tags: Record<string, string>; sans: string[]; comments: Map<string, string> }[] {
  return pgn
    .split(/\n(?=\[Event )/)
    .filter((g) => g.trim() !== '')
    .map((g) => {
      const chess = new Chess();
      chess.loadPgn(g);
      return {
        tags: chess.getHeaders() as Record<string, string>,
        sans: chess.history(),
        comments: new Map(chess.getComments().map((c) => [c.fen, c.comment ?? ''])),
      };
    });
}

/** Whole seconds of an `h:mm:ss` (or pgn-mule's unpadded `h:m:s`). */
const seconds = (clock: string): number => clock.split(':').reduce((s, part) => s * 60 + Number(part), 0);

/** The PGN's moves as the LCC layout writes them: `SAN clock+used`, from the [%clk] and [%emt] of each. */
function lccMovesOfPgn(pgn: string): string[] {
  const chess = new Chess();
  chess.loadPgn(pgn);
  const comments = new Map(chess.getComments().map((c) => [c.fen, c.comment ?? '']));
  const replay = new Chess();
  return chess.history().map((san) => {
    replay.move(san);
    const comment = comments.get(replay.fen()) ?? '';
    const clk = /\[%clk ([\d:]+)\]/.exec(comment)?.[1];
    const emt = /\[%emt ([\d:]+)\]/.exec(comment)?.[1];
    return clk && emt ? `${san} ${seconds(clk)}+${seconds(emt)}` : san;
  });
}

describe('the LiveChessCloud layout per section', () => {
  it('tournament.json: the section by its id, every round with its games and those in progress', async () => {
    for (const id of ['open', 'b']) {
      const section = findSection(event, id);
      const t = await json<LccTournament>(`/api/lcc/${id}/tournament.json`);
      const games = run.desks.get(id)!.pairingOf(1)!.games.length;
      expect(t).toEqual({
        id,
        name: `${event.name} – ${section.name}`,
        location: event.city ?? null,
        country: null,
        website: null,
        rules: 'STANDARD',
        chess960: 'STANDARD',
        timecontrol: section.timeControl,
        // Open: board 1 finished, the rest on; B: board 1 finished.
        rounds: Array.from({ length: 11 }, (_, i) => (i === 0 ? { count: games, live: games - 1 } : { count: 0, live: 0 })),
        eboards: run.hall.seated.get(id)!.boards.map((b) => b.id),
      });
    }
  });

  it('round-1/index.json: the pairings in the section board order, players as the event file has them, results', async () => {
    const r = await json<LccRound>('/api/lcc/b/round-1/index.json');
    const section = findSection(event, 'b');
    const games = run.desks.get('b')!.pairingOf(1)!.games;
    expect(r.date).toBe(run.hall.seated.get('b')!.scheduledStart.slice(0, 10));
    expect(r.pairings).toHaveLength(games.length);
    games.forEach((g, i) => {
      const pairing = r.pairings[i]!;
      for (const [side, id] of [
        ['white', g.white],
        ['black', g.black],
      ] as const) {
        const p = section.players.find((x) => x.id === id)!;
        expect(pairing[side]).toEqual({
          // "Surname, Given" in its parts; a name without a comma whole as the first name.
          fname: p.name.includes(',') ? p.name.slice(p.name.indexOf(',') + 1).trim() : p.name,
          mname: null,
          lname: p.name.includes(',') ? p.name.slice(0, p.name.indexOf(',')) : null,
          title: p.title ?? null,
          federation: p.federation,
          gender: p.sex === 'm' ? 'MALE' : p.sex === 'w' ? 'FEMALE' : null,
          fideid: p.fideId !== undefined ? Number(p.fideId) : null,
        });
      }
      expect(pairing.result).toBe(i === 0 ? '0-1' : '*');
      if (i === 0) expect([pairing.white.fname, pairing.white.lname]).toEqual(['Thandi Grace', 'Tshabalala']);
      expect(pairing.live).toBe(i !== 0);
    });
  });

  it('round-1/game-M.json: moves as `SAN clock+used` in whole seconds, the result, the clock of a game on', async () => {
    const epoch = run.journal.meta()!.epochWallMs;
    const done = await json<LccGame>('/api/lcc/open/round-1/game-1.json');
    // 90 minutes + 30 s a move from move 1, each move's 30 s shown from its start: e4 after 10 s leaves
    // 5420 s and shows 5450 with the next move's 30 s, as [%clk] does; e5 after 15.5 s, 5444.5 s shown as 5444.
    expect(done).toEqual({
      live: false,
      serialNr: hallBoard('open', 1),
      firstMove: epoch + START,
      chess960: 518,
      result: 'WHITEWIN',
      comment: 'Black resigned',
      clock: null,
      moves: ['e4 5450+10', 'e5 5444+15', 'Nf3 5465+14', 'Nc6 5413+60'],
    });
    const on = await json<LccGame>('/api/lcc/open/round-1/game-2.json');
    expect(on).toMatchObject({ live: true, result: null, comment: null, moves: ['d4 5455+5', 'Nf6 5400+60'] });
    // As of Black's press: White's clock runs from there.
    expect(on.clock).toEqual({ white: 5455, black: 5400, run: true, time: epoch + START + 65_000 });
    // Every game of both sections says what the console's PGN of the round says.
    for (const id of ['open', 'b']) {
      const pgn = await (await get(`/api/pgn?section=${id}&round=1`)).body.toString();
      const byBoard = new Map(pgn.split(/\n(?=\[Event )/).map((g) => [/\[Board "(\d+)"\]/.exec(g)![1]!, g]));
      const count = (await json<LccTournament>(`/api/lcc/${id}/tournament.json`)).rounds[0]!.count;
      expect(byBoard.size).toBe(count);
      for (let m = 1; m <= count; m++) {
        const game = await json<LccGame>(`/api/lcc/${id}/round-1/game-${m}.json`);
        expect(game.moves).toEqual(lccMovesOfPgn(byBoard.get(String(m))!));
      }
    }
  });

  it('is served as the other feeds: ETag, 304 to a current copy, gzip, a new ETag after a move; 404 for what is not there', async () => {
    const path = '/api/lcc/open/round-1/index.json';
    const first = await get(path, { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['content-encoding']).toBe('gzip');
    const plain = await get(path);
    expect(gunzipSync(first.body).equals(plain.body)).toBe(true);
    const etag = plain.headers.etag as string;
    expect((await get(path, { 'if-none-match': etag })).status).toBe(304);
    // LiveChess viewers ask with `?poll`: a parameter no route reads, the same file.
    expect((await get(`${path}?poll`, { 'if-none-match': etag })).status).toBe(304);
    // The clock's second moving on is no change: the file holds no time as of now.
    source.set(source.now() + 5_000);
    expect((await get(path, { 'if-none-match': etag })).status).toBe(304);
    const game = '/api/lcc/open/round-1/game-2.json';
    const before = (await get(game)).headers.etag as string;
    move(hallBoard('open', 2), 'white', 'c4', source.now() + 1_000);
    const after = await get(game, { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect((JSON.parse(String(after.body)) as LccGame).moves.at(-1)).toMatch(/^c4 \d+\+\d+$/);

    expect((await get('/api/lcc/nope/tournament.json')).status).toBe(404);
    expect(JSON.parse(String((await get('/api/lcc/nope/tournament.json')).body))).toEqual({ error: "no section 'nope'", sections: ['open', 'b'] });
    expect((await get('/api/lcc/open/round-2/index.json')).status).toBe(404);
    expect((await get('/api/lcc/open/round-1/game-999.json')).status).toBe(404);
    expect((await get('/api/lcc/open/round-0/index.json')).status).toBe(404);
    expect((await get('/api/lcc/open/games.json')).status).toBe(404);
  });
});

const readerReason = !READER
  ? 'LCC_READER is not set: clone github.com/lichess-org/pgn-mule beside the project, install chessops@0.13, dayjs and request beside it, and set LCC_READER to the checkout (docs/console.md, "For broadcasters")'
  : `LCC_READER=${READER} has no src/source/lcc.ts`;

describe.skipIf(!readerFile || !existsSync(readerFile))(`pgn-mule's LCC reader (${readerFile ? READER : readerReason})`, () => {
  it('reads every game of both sections with the players, results and moves (clock times) of the console PGN', { timeout: 120_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'zeitnot-lcc-reader-'));
    try {
      // The reader hard-codes LiveChessCloud's host: its copy is bundled with that one URL pointing at the console.
      const lcc = 'https://1.pool.livechesscloud.com/get/';
      let replaced = 0;
      const driver = join(work, 'driver.ts');
      writeFileSync(
        driver,
        `import fetchLcc from ${JSON.stringify(readerFile)};
const out: Record<string, string> = {};
for (const id of process.argv.slice(2)) out[id] = await fetchLcc({ url: 'lcc:' + id + '/1' } as never);
console.log(JSON.stringify(out));
`,
      );
      const bundle = join(work, 'reader.mjs');
      await build({
        entryPoints: [driver],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: bundle,
        logLevel: 'silent',
        // request is CommonJS and requires Node's modules: give the bundle a require of its own.
        banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
        plugins: [
          {
            name: 'console-url',
            setup(b) {
              b.onLoad({ filter: /[\\/]source[\\/]lcc\.ts$/ }, (args) => {
                const text = readFileSync(args.path, 'utf8');
                replaced = text.split(`\`${lcc}`).length - 1;
                return { contents: text.replaceAll(lcc, `${run.url}/api/lcc/`), loader: 'ts' };
              });
            },
          },
        ],
      });
      expect(replaced).toBe(3);
      const { stdout } = await promisify(execFile)(process.execPath, [bundle, 'open', 'b'], { maxBuffer: 64 << 20 });
      const read = JSON.parse(stdout) as Record<string, string>;
      for (const id of ['open', 'b']) {
        const console = gamesOf(await (await get(`/api/pgn?section=${id}&round=1`)).body.toString());
        const mule = gamesOf(read[id]!);
        expect(mule).toHaveLength(console.length);
        expect(mule.length).toBe(run.desks.get(id)!.pairingOf(1)!.games.length);
        for (const game of console) {
          const theirs = mule.find((g) => g.tags['Board'] === game.tags['Board']);
          expect(theirs, `board ${game.tags['Board']}`).toBeDefined();
          const t = theirs!.tags;
          expect([t['White'], t['Black'], t['Result']]).toEqual([joined(game.tags['White']!), joined(game.tags['Black']!), game.tags['Result']]);
          expect([t['WhiteFideId'], t['BlackFideId'], t['WhiteTitle'], t['BlackTitle']]).toEqual([
            game.tags['WhiteFideId'],
            game.tags['BlackFideId'],
            game.tags['WhiteTitle'],
            game.tags['BlackTitle'],
          ]);
          expect(t['Event']).toBe(game.tags['Event']);
          expect(t['Round']).toBe('1');
          expect(theirs!.sans).toEqual(game.sans);
          // Each move's clock as the reader writes it ([%clk h:m:s]) is the console's [%clk], to the second.
          const clocks = (g: ReturnType<typeof gamesOf>[number]): (number | undefined)[] => {
            const replay = new Chess();
            return g.sans.map((san) => {
              replay.move(san);
              const clk = /\[%clk ([\d:]+)\]/.exec(g.comments.get(replay.fen()) ?? '')?.[1];
              return clk === undefined ? undefined : seconds(clk);
            });
          };
          expect(clocks(theirs!)).toEqual(clocks(game));
        }
      }
      // The games with moves and results above are among them.
      const open = gamesOf(read['open']!);
      expect(open.find((g) => g.tags['Board'] === '1')).toMatchObject({ sans: ['e4', 'e5', 'Nf3', 'Nc6'], tags: { Result: '1-0' } });
      expect(gamesOf(read['b']!).find((g) => g.tags['Board'] === '1')).toMatchObject({
        sans: ['c4'],
        tags: { White: 'Thandi Grace Tshabalala', Result: '0-1' },
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
