// `--pgn-dir DIR` (docs/console.md, "For broadcasters"): the event's PGN as files, what DGT LiveChess
// writes and the lichess broadcaster app uploads: DIR/<section>/round-N.pgn for each round seated
// on the boards and DIR/games.pgn with every one of them, kept up to date as the games change.
// A reader never sees a partial file: each version is written to a temporary file in the same
// folder, fsynced, and renamed over the old one (a rename within a file system replaces at once).
// Each file is written at most once per `minIntervalMs` (a second): a burst of moves is one write.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { boardPgn, type Board, type PlayingHall } from '../hall/index.ts';
import type { Round } from '../contract/index.ts';
import { replayRound, type TournamentDesk } from '../desk/index.ts';
import type { SectionRecord } from '../../tournament/index.ts';

/** Real time for the throttle: injected in tests. */
export interface FolderTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface PgnFolderOptions {
  readonly dir: string;
  readonly hall: PlayingHall;
  /** The event's sections (their desks), in the event's order: games.pgn lists them so. */
  readonly desks: ReadonlyMap<string, TournamentDesk>;
  readonly minIntervalMs?: number;
  readonly timers?: FolderTimers;
  /** A write that failed (a full disk): told once per failure; the file is tried again at its next change. */
  readonly onError?: (file: string, error: Error) => void;
}

export interface PgnFolder {
  /** Files written since start (tests, /health). */
  readonly writes: number;
  /** Writes every file whose content changed, now, throttle or not (the console's stop). */
  flush(): void;
  stop(): void;
}

const realTimers: FolderTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
};

const GAMES = 'games.pgn';
const roundFile = (section: string, round: number): string => join(section, `round-${round}.pgn`);

/** Writes `text` to `file` so that a reader sees the old version or the new one, never a part: temp file, fsync, rename. */
export function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

export function startPgnFolder(options: PgnFolderOptions): PgnFolder {
  const { dir, hall, desks } = options;
  const minInterval = options.minIntervalMs ?? 1000;
  const timers = options.timers ?? realTimers;
  const sections = [...desks.keys()];
  /** Each section's rounds seated so far (a round once seated keeps its file). */
  const rounds = new Map<string, number[]>(sections.map((s) => [s, []]));
  /** A round no longer on the boards: its text, rebuilt from the journal when the desk's results of it change. */
  const past = new Map<string, { readonly text: string; readonly results: string }>();
  const written = new Map<string, string>();
  const lastWrite = new Map<string, number>();
  const pending = new Map<string, unknown>();
  const dirty = new Set<string>();
  let writes = 0;

  mkdirSync(dir, { recursive: true });
  for (const s of sections) mkdirSync(join(dir, s), { recursive: true });
  for (const entry of hall.journal.entries(0, 'seat')) {
    if (entry.record.kind !== 'seat') continue;
    const { section, round } = entry.record.round;
    const known = section !== undefined ? rounds.get(section) : undefined;
    if (known && !known.includes(round)) known.push(round);
  }

  const onBoards = (section: string, round: number): Round | undefined => {
    const seated = hall.seated.get(section);
    return seated?.round === round ? seated : undefined;
  };
  /** The section's record, built once for all the rounds that ask (a desk builds it whole at each call). */
  const recordOnce = (section: string): (() => SectionRecord | undefined) => {
    let record: SectionRecord | undefined;
    return () => (record ??= desks.get(section)?.record());
  };
  const resultsOf = (record: () => SectionRecord | undefined, round: number): string => JSON.stringify(record()?.rounds[round - 1] ?? null);

  function roundText(section: string, round: number, record = recordOnce(section)): string {
    const seated = onBoards(section, round);
    if (seated) {
      const boards = seated.boards.flatMap((info) => hall.boards.get(info.id) ?? []);
      return pgnOf(seated, boards, hall.source.now(), Date.now());
    }
    const key = `${section}/${round}`;
    const results = resultsOf(record, round);
    const kept = past.get(key);
    if (kept && kept.results === results) return kept.text;
    const replayed = replayRound(hall.journal, section, round);
    const text = replayed ? pgnOf(replayed.seated, [...replayed.boards.values()], hall.source.now()) : '';
    past.set(key, { text, results });
    return text;
  }

  function textOf(file: string): string {
    if (file === GAMES)
      return sections
        .flatMap((s) => {
          const record = recordOnce(s);
          return [...rounds.get(s)!].sort((a, b) => a - b).map((r) => roundText(s, r, record));
        })
        .filter((t) => t !== '')
        .join('\n');
    const [section, name] = file.split(/[\\/]/) as [string, string];
    return roundText(section, Number(/^round-(\d+)\.pgn$/.exec(name)![1]));
  }

  function write(file: string): void {
    pending.delete(file);
    if (!dirty.delete(file)) return;
    const text = textOf(file);
    lastWrite.set(file, timers.now());
    // No file before its first game (games.pgn before the first round is published).
    if (written.get(file) === text || (text === '' && !written.has(file))) return;
    try {
      writeAtomically(join(dir, file), text);
      written.set(file, text);
      writes += 1;
    } catch (err) {
      options.onError?.(file, err as Error);
    }
  }

  /** The file's next write: now when its last was a second ago or more, else when that second is up. */
  function mark(file: string): void {
    dirty.add(file);
    if (pending.has(file)) return;
    const wait = (lastWrite.get(file) ?? -Infinity) + minInterval - timers.now();
    // Even "now" waits for the end of the turn: the records of one command arrive as several changes.
    pending.set(
      file,
      timers.setTimeout(() => write(file), Math.max(0, wait)),
    );
  }

  /** A round newly on the boards joins its section's list; the rounds before it are final, and written once more. */
  function newRounds(): void {
    for (const [section, seated] of hall.seated) {
      const known = rounds.get(section);
      if (!known || known.includes(seated.round)) continue;
      for (const r of known) mark(roundFile(section, r));
      known.push(seated.round);
      mark(roundFile(section, seated.round));
    }
  }

  for (const [section, known] of rounds) for (const r of known) mark(roundFile(section, r));
  newRounds();
  mark(GAMES);
  const unsubscribeHall = hall.subscribe((change) => {
    newRounds();
    for (const board of change.boards) {
      const round = hall.roundOf(board);
      if (round?.section !== undefined && rounds.has(round.section)) mark(roundFile(round.section, round.round));
    }
    mark(GAMES);
  });
  // A result entered or corrected at the desk for a round no longer on the boards reaches its file.
  const unsubscribeDesks = [...desks.values()].map((desk) =>
    desk.subscribe(() => {
      const section = desk.section.id;
      const record = recordOnce(section);
      for (const r of rounds.get(section) ?? [])
        if (!onBoards(section, r) && past.get(`${section}/${r}`)?.results !== resultsOf(record, r)) mark(roundFile(section, r));
      mark(GAMES);
    }),
  );

  return {
    get writes() {
      return writes;
    },
    flush() {
      for (const [file, id] of pending) {
        timers.clearTimeout(id);
        write(file);
      }
    },
    stop() {
      unsubscribeHall();
      for (const u of unsubscribeDesks) u();
      this.flush();
    },
  };
}

/** A round's games in the section's board order, as /api/pgn writes them. */
function pgnOf(round: Round, boards: readonly Board[], now: number, wallMs?: number): string {
  const number = (b: Board): number => b.info.sectionBoard ?? Number(b.id);
  return [...boards]
    .sort((a, b) => number(a) - number(b))
    .map((b) => boardPgn(round, b, now, wallMs))
    .join('\n');
}
