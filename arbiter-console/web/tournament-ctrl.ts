// The tournament pages' state and actions (as ConsoleCtrl is the clocks page's): the section shown,
// the page, the arbiter's reason, and every value he picked and has not sent yet (a result in a
// row, the board to exchange with, the fields of a form), kept here so that no delta ever puts a
// control back under his finger. Views (view/tournament.ts and the pages it shows) only read it.
import type { GameResult } from '../contract/page.ts';
import type { Offence } from '../contract/page.ts';
import type { ConsoleCommand } from '../contract/page.ts';
import type { TournamentView, TrfImportPreview } from '../contract/page.ts';
import type { Connection } from './connection.ts';
import { askConfirm } from './dialogs.ts';

export type TournamentPageId = 'pairings' | 'crosstable' | 'playoffs' | 'fines' | 'regulations';

/** What an arbiter can enter for a game: the three results and the forfeits (+-- White wins by forfeit). */
export const RESULTS = ['1-0', '0-1', '1/2-1/2', '+--', '--+', '---'] as const satisfies readonly GameResult[];
export type EnteredResult = (typeof RESULTS)[number];
export const PLAYOFF_RESULTS = ['1-0', '0-1', '1/2-1/2'] as const satisfies readonly EnteredResult[];

/** The kinds of stage of the chief arbiter's playoff format (contract/protocol.ts setPlayoffFormat). */
export const FORMAT_STAGE_KINDS = ['round-robin', 'knockout', 'armageddon'] as const;
const MAX_FORMAT_STAGES = 8;

export const OFFENCES = ['late-arrival', 'electronic-device', 'device-noise', 'device-noise-after-game'] as const satisfies readonly Offence[];

export const resultText = (r: string | null): string => (r === null ? '' : r === '1/2-1/2' ? '½-½' : r);

/** The sections of a console's tournament view: its own, or an event console's every section. */
export const sectionsOf = (t: TournamentView | undefined): readonly TournamentView[] => t?.sections ?? (t ? [t] : []);

const DEFAULT_REASON = 'arbiter: checked with the scoresheets';

export class TournamentCtrl {
  page: TournamentPageId = 'pairings';
  /** The section picked in the section selector ('' until then: the first). */
  section = '';
  /** The reason journaled with entries, corrections and draft changes. */
  reason = DEFAULT_REASON;
  /** The crosstable game whose correction history is open ("round:white:black"). */
  history: string | undefined;
  /** The TRF import box: the file picked (as text), its preview, the console's last answer. */
  trfImport: { file?: { from: string; trf: string }; preview?: TrfImportPreview; message?: { ok: boolean; text: string } } = {};
  /** How many stages the playoff format form shows. */
  formatStages = 2;
  /** Values picked and not sent, by control: `result 1/4`, `exchange 2`, `absence player`, ... */
  readonly #chosen = new Map<string, string>();

  constructor(
    readonly conn: Connection,
    readonly arbiter: boolean,
    readonly redraw: () => void,
  ) {}

  /** Every section this console runs (the event's, in its order). */
  sections(): readonly TournamentView[] {
    return sectionsOf(this.conn.state.tournament);
  }

  /** The section shown: the one picked, else the first. */
  view(): TournamentView | undefined {
    return this.sections().find((t) => t.section.id === this.section) ?? this.conn.state.tournament;
  }

  show(page: TournamentPageId): void {
    this.page = page;
    this.redraw();
  }

  pickSection(id: string): void {
    this.section = id;
    // A choice made in one section's rows means nothing in another's.
    this.#chosen.clear();
    this.history = undefined;
    this.trfImport = {};
    this.redraw();
  }

  toggleHistory(game: string): void {
    this.history = this.history === game ? undefined : game;
    this.redraw();
  }

  setReason(text: string): void {
    this.reason = text;
  }

  /** The value of a control: what the arbiter picked, else what the console says. */
  chosen(key: string, fallback: string): string {
    return this.#chosen.get(key) ?? fallback;
  }

  choose(key: string, value: string): void {
    this.#chosen.set(key, value);
    this.redraw();
  }

  /** Clock results of the section's live round, waiting for the arbiter (the desk has clock results in its live round only). */
  toConfirm(v: TournamentView): number {
    return v.rounds
      .filter((r) => r.round === v.liveRound)
      .flatMap((r) => r.games)
      .filter((g) => g.source === 'clock').length;
  }

  /** Players of every section who lost by default and whose withdrawal waits for the arbiter's decision. */
  toDecide(): number {
    return this.sections().reduce((n, v) => n + (v.regulations.noShows ?? []).filter((s) => s.decided === undefined).length, 0);
  }

  // Sent values are forgotten without a redraw: the console's answer (the delta) shows them next.
  #sent(...keys: string[]): void {
    for (const key of keys) this.#chosen.delete(key);
  }

  #why(): string {
    return this.reason.trim() || 'arbiter decision';
  }

  /** Every tournament command names its section (an event console runs them all). */
  send(command: ConsoleCommand, what: string): void {
    const section = this.view()?.section.id;
    this.conn.send(section !== undefined && 'type' in command ? ({ ...command, section } as ConsoleCommand) : command, what);
  }

  /**
   * The result picked in a game's row: an entry, or a correction of a result it already has (asked
   * first, in a dialog that never blocks the clocks).
   */
  async enterResult(
    round: number,
    game: { board: number; white: { id: number; name: string }; black: { id: number; name: string }; result: GameResult | null },
  ): Promise<void> {
    const key = resultKey(round, game.board);
    const result = this.#chosen.get(key) ?? '';
    if (!isEntered(result)) return;
    if (game.result !== null && game.result !== result) {
      const question = `Round ${round} board ${game.board}: change ${resultText(game.result)} to ${resultText(result)} (${game.white.name} – ${game.black.name})?`;
      if (!(await askConfirm(question, 'Correct the result'))) return;
    }
    this.#sent(key);
    this.send(
      { type: 'enterResult', round, white: game.white.id, black: game.black.id, result, reason: this.#why() },
      `Round ${round} board ${game.board}: result`,
    );
  }

  confirmResult(round: number, game: { board: number; white: { id: number }; black: { id: number } }): void {
    this.send({ type: 'confirmResult', round, white: game.white.id, black: game.black.id }, `Round ${round} board ${game.board}: confirm`);
  }

  /** A contradiction between the clock and the desk settled: the entered result kept, or the clock's taken. */
  resolveConflict(round: number, game: { board: number; white: { id: number }; black: { id: number } }, keep: 'entered' | 'clock'): void {
    this.send(
      { type: 'resolveResultConflict', round, white: game.white.id, black: game.black.id, keep, reason: this.#why() },
      `Round ${round} board ${game.board}: desk and clock`,
    );
  }

  async confirmRound(round: number, count: number): Promise<void> {
    if (!(await askConfirm(`Confirm the ${count} result${count === 1 ? '' : 's'} of round ${round} as the clocks recorded them?`, 'Confirm them all'))) return;
    this.send({ type: 'confirmRound' }, 'Confirm every clock result');
  }

  pairNextRound(): void {
    this.send({ type: 'pairNextRound' }, 'Pair next round');
  }

  swapColours(board: number): void {
    this.send({ type: 'swapColours', board, reason: this.#why() }, `Draft board ${board}: swap colours`);
  }

  exchangeOpponents(board: number, firstOther: number): void {
    const key = `exchange ${board}`;
    const other = Number(this.chosen(key, String(firstOther)));
    this.#sent(key);
    this.send({ type: 'exchangeOpponents', board, otherBoard: other, reason: this.#why() }, `Draft boards ${board} and ${other}: exchange opponents`);
  }

  async discardDraft(round: number): Promise<void> {
    if (!(await askConfirm(`Discard the draft of round ${round} and its changes?`, 'Discard'))) return;
    this.send({ type: 'discardDraft', reason: this.#why() }, 'Discard draft');
  }

  publishRound(): void {
    this.send({ type: 'publishRound' }, 'Publish round');
  }

  /** The byes-and-withdrawals form: `fields` are its defaults (the first player, the next round). */
  requestBye(fields: { player: string; round: string; kind: string }): void {
    const { player, round, kind } = this.#form('absence', fields);
    this.send(
      { type: 'requestBye', round: Number(round), player: Number(player), kind: kind === 'zero' ? 'zero' : 'half', reason: this.#why() },
      `Bye for ${player} in round ${round}`,
    );
  }

  async withdrawPlayer(fields: { player: string; round: string; kind: string }): Promise<void> {
    const { player, round } = this.#form('absence', fields, false);
    const name = this.view()?.crosstable.rows.find((r) => r.id === Number(player))?.name ?? player;
    if (!(await askConfirm(`Withdraw ${name} from round ${round} on? They are paired no more.`, 'Withdraw'))) return;
    this.#form('absence', fields);
    this.send({ type: 'withdrawPlayer', player: Number(player), fromRound: Number(round), reason: this.#why() }, `Withdraw ${player} from round ${round}`);
  }

  renamePlayer(fields: { player: string; name: string }): void {
    const { player, name } = this.#form('rename', fields);
    if (!name.trim()) return;
    this.send({ type: 'renamePlayer', player: Number(player), name: name.trim(), reason: this.#why() }, `Name of ${player}: ${name.trim()}`);
  }

  recordIncident(fields: { round: string; player: string; offence: string; note: string }): void {
    const { round, player, offence, note } = this.#form('incident', fields);
    const text = note.trim();
    const known = OFFENCES.find((o) => o === offence);
    if (!known) return;
    this.send({ type: 'recordIncident', round: Number(round), player: Number(player), offence: known, ...(text ? { note: text } : {}) }, 'Record incident');
  }

  /** A no-show decided: withdrawn (the arbiter confirms no notification came) or notified (stays paired). */
  recordNoShow(round: number, player: { id: number; name: string }, noNotification: boolean): void {
    this.send(
      { type: 'recordNoShow', round, player: player.id, noNotification, reason: this.#why() },
      `Round ${round}: ${player.name} ${noNotification ? 'withdrawn (no notification)' : 'notified'}`,
    );
  }

  /** The chief's rating for an unrated player, as typed in his row. */
  assignRating(player: { id: number; name: string }): void {
    const key = `rating ${player.id}`;
    const rating = Number(this.chosen(key, ''));
    if (!Number.isInteger(rating) || rating <= 0) return;
    this.#sent(key);
    this.send({ type: 'assignRating', player: player.id, rating, reason: this.#why() }, `Rating ${rating} for ${player.name}`);
  }

  /** A written appeal received now: the form's round, player, what is appealed and the fee paid. */
  lodgeAppeal(fields: { round: string; player: string; against: string; fee: string }): void {
    const { round, player, against, fee } = this.#form('appeal', fields);
    if (!against.trim()) return;
    this.send(
      { type: 'lodgeAppeal', round: Number(round), player: Number(player), against: against.trim(), ...(fee.trim() ? { fee: Number(fee) } : {}) },
      `Appeal of ${player} (round ${round})`,
    );
  }

  /** The committee's decision; its members typed as "section:number" (a player of the event) or a name, by commas. */
  decideAppeal(appeal: string, upheld: boolean): void {
    const key = `committee ${appeal}`;
    const committee = committeeOf(this.chosen(key, ''));
    if (committee.length === 0) return;
    this.#sent(key);
    this.send({ type: 'decideAppeal', appeal, upheld, committee, reason: this.#why() }, `Appeal ${appeal}: ${upheld ? 'upheld' : 'dismissed'}`);
  }

  /** The chief's waiver of a fine: the incident picked and his reason (a waiver without one is not sent). */
  waiveFine(fields: { incident: string; reason: string }): void {
    const { incident, reason } = this.#form('waive', fields, false);
    if (!incident || !reason.trim()) return;
    this.#form('waive', fields);
    this.send({ type: 'waiveFine', incident, reason: reason.trim() }, `Waive the fine ${incident}`);
  }

  /** Whether this page speaks for the chief arbiter (the waiver is his alone: contract/staff.ts). */
  get chief(): boolean {
    return this.conn.state.arbiter?.role === 'chief';
  }

  startPlayoff(): void {
    this.send({ type: 'startPlayoff' }, 'Start playoff');
  }

  decidePlayoff(firstWinner: number): void {
    const winner = Number(this.chosen('playoff winner', String(firstWinner)));
    this.#sent('playoff winner');
    this.send({ type: 'decidePlayoff', winner, reason: this.#why() }, "Playoff: the chief arbiter's ruling");
  }

  addFormatStage(): void {
    this.formatStages = Math.min(MAX_FORMAT_STAGES, this.formatStages + 1);
    this.redraw();
  }

  removeFormatStage(): void {
    this.formatStages = Math.max(1, this.formatStages - 1);
    this.redraw();
  }

  /**
   * The chief arbiter's playoff format from the Playoffs page's form (`defaults`: formatDefaults), with
   * the reason. The values stay in the form: a refused format (a time control the engine cannot play)
   * is corrected, not typed again; an accepted one closes the form.
   */
  setPlayoffFormat(defaults: Record<string, string>, tiebreaks: readonly string[]): void {
    const f = this.#form('format', defaults, false);
    const field = (name: string): string => f[name] ?? '';
    const cut = field('cut') === 'cut' ? { cut: { to: Number(field('cut to')), tiebreaks: tiebreaks.filter((code) => field(`cut ${code}`) === 'on') } } : {};
    const stages = Array.from({ length: this.formatStages }, (_, i) => ({
      kind: FORMAT_STAGE_KINDS.find((k) => k === field(`stage ${i} kind`)) ?? 'round-robin',
      games: Number(field(`stage ${i} games`)),
      timeControl: field(`stage ${i} tc`).trim(),
      onTie: field(`stage ${i} tie`) === 'tiebreaks' ? ('tiebreaks' as const) : ('next-stage' as const),
    }));
    this.send({ type: 'setPlayoffFormat', format: { ...cut, stages }, reason: this.#why() }, "Playoff: the chief arbiter's format");
  }

  playoffResult(game: string, label: string): void {
    const key = `playoff ${game}`;
    const result = this.chosen(key, PLAYOFF_RESULTS[0]);
    if (!isEntered(result)) return;
    this.#sent(key);
    this.send({ type: 'playoffResult', game, result }, `Playoff ${label}: result`);
  }

  /** A TRF file picked for import: read as text (UTF-8, else Latin-1 as programs write TRF); a new file drops the old preview. */
  async pickImportFile(file: File | undefined): Promise<void> {
    this.#reading = (async () => {
      this.trfImport = file ? { file: { from: file.name, trf: decodeText(await file.arrayBuffer()) } } : {};
    })();
    await this.#reading;
    this.redraw();
  }

  /** The file being read (Preview waits for it). */
  #reading: Promise<void> | undefined;

  /** Asks the console what the import would change (nothing is journaled). */
  async previewImport(): Promise<void> {
    await this.#reading;
    const file = this.trfImport.file;
    if (!file) return this.#importAnswer({ message: { ok: false, text: 'Pick a TRF file first.' } });
    const reply = await this.#postImport(file, true);
    this.#importAnswer(reply.preview ? { file, preview: reply.preview } : { message: { ok: false, text: `Refused: ${reply.error ?? 'no reason given'}` } });
  }

  /** The previewed file imported (journaled by the console). */
  async confirmImport(): Promise<void> {
    const file = this.trfImport.file;
    if (!file || !this.trfImport.preview) return;
    const reply = await this.#postImport(file, false);
    this.#importAnswer({
      message: reply.preview
        ? { ok: true, text: `Imported ${reply.preview.from} by ${reply.by ?? ''} (journal entry ${reply.journalSeq ?? ''}).` }
        : { ok: false, text: `Refused: ${reply.error ?? 'no reason given'}` },
    });
  }

  cancelImport(): void {
    this.#importAnswer({});
  }

  #importAnswer(state: TournamentCtrl['trfImport']): void {
    this.trfImport = state;
    this.redraw();
  }

  async #postImport(
    file: { from: string; trf: string },
    preview: boolean,
  ): Promise<{ error?: string; by?: string; journalSeq?: number; preview?: TrfImportPreview }> {
    const section = this.view()?.section.id;
    try {
      const answer = await fetch('/api/import-trf', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.conn.token ?? ''}` },
        body: JSON.stringify({ ...file, preview, ...(section !== undefined ? { section } : {}) }),
      });
      return (await answer.json()) as { error?: string; by?: string; journalSeq?: number; preview?: TrfImportPreview };
    } catch (err) {
      return { error: `the console did not answer: ${String(err)}` };
    }
  }

  /** The print view of this page: A4, no controls (style.css @media print); the result slips alone on demand. */
  print(slips: boolean): void {
    document.body.classList.toggle('print-slips', slips);
    window.print();
    document.body.classList.remove('print-slips');
  }

  /** A form's values (picked, else its defaults); `send` forgets the picked ones. */
  #form<F extends Record<string, string>>(form: string, defaults: F, send = true): F {
    const values = Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, this.chosen(`${form} ${name}`, value)])) as F;
    if (send) this.#sent(...Object.keys(defaults).map((name) => `${form} ${name}`));
    return values;
  }
}

function decodeText(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** "kutxa:3, An Official" -> the committee's members: a player of the event by section and number, or a name. */
export function committeeOf(text: string): ({ section: string; player: number } | { name: string })[] {
  return text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '')
    .map((m) => {
      const player = /^([a-z0-9-]+):(\d{1,4})$/.exec(m);
      return player ? { section: player[1]!, player: Number(player[2]) } : { name: m };
    });
}

export const resultKey = (round: number, board: number): string => `result ${round}/${board}`;

/**
 * What the playoff format form shows before the chief changes anything: no cut (or, picked, the best
 * all but one by every tie-break of the section), round robins of one game a pairing at G/10+5 and
 * an Armageddon W5-B4 last.
 */
export function formatDefaults(stages: number, tied: number, tiebreaks: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = { cut: 'none', 'cut to': String(Math.max(2, tied - 1)) };
  for (const code of tiebreaks) fields[`cut ${code}`] = 'on';
  for (let i = 0; i < stages; i += 1) {
    const last = stages > 1 && i === stages - 1;
    fields[`stage ${i} kind`] = last ? 'armageddon' : 'round-robin';
    fields[`stage ${i} games`] = '1';
    fields[`stage ${i} tc`] = last ? 'W300-B240' : '600+5';
    fields[`stage ${i} tie`] = 'next-stage';
  }
  return fields;
}

const isEntered = (r: string): r is EnteredResult => (RESULTS as readonly string[]).includes(r);
