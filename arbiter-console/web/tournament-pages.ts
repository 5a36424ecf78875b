// The tournament pages: pairings with result entry and the next-round draft, the live crosstable,
// playoffs, fines and prizes. Each page keeps a static part (the arbiter's reason field) and redraws
// its content from the whole TournamentView whenever the console sends one. Spectators get the same
// tables without a single control.
import type { ConsoleCommand } from '../protocol.ts';
import type { DraftView, PairedGame, ResultCorrection, RoundPairings, TournamentView } from '../tournament-view.ts';
import type { Connection } from './connection.ts';
import { escapeHtml } from './format.ts';

export type TournamentPageId = 'pairings' | 'crosstable' | 'playoffs' | 'fines';

const RESULTS = ['1-0', '0-1', '1/2-1/2', '+--', '--+', '---'] as const;
const SOURCE_TEXT = { clock: 'from the clock, to confirm', confirmed: 'confirmed', arbiter: 'arbiter' } as const;

const e = escapeHtml;
const resultText = (r: string | null): string => (r === null ? '' : r === '1/2-1/2' ? '½-½' : r);
const number = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/0$/, ''));

export interface TournamentPages {
  show(page: TournamentPageId): void;
  render(): void;
}

export function tournamentPages(root: HTMLElement, conn: Connection, arbiter: boolean): TournamentPages {
  let current: TournamentPageId = 'pairings';
  root.innerHTML = `
    <div class="tournament">
      ${
        arbiter
          ? `<div class="round-actions" id="t-reason-bar">
               <label>Reason (journal) <input id="t-reason" maxlength="200" value="arbiter: checked with the scoresheets"></label>
             </div>`
          : ''
      }
      <div class="round-actions" id="t-sections" hidden><label>Section <select id="t-section"></select></label></div>
      <div id="t-content"></div>
    </div>`;
  const content = root.querySelector<HTMLElement>('#t-content')!;
  const reasonBar = root.querySelector<HTMLElement>('#t-reason-bar');
  const reason = (): string => root.querySelector<HTMLInputElement>('#t-reason')?.value.trim() || 'arbiter decision';
  const sectionSelect = root.querySelector<HTMLSelectElement>('#t-section')!;
  const sectionsBar = root.querySelector<HTMLElement>('#t-sections')!;
  let selected: string | undefined;
  /** The crosstable game whose correction history is open ("round:white:black"). */
  let history: string | undefined;
  sectionSelect.addEventListener('change', () => {
    selected = sectionSelect.value;
    render();
  });
  /** The selected section's view (the first section until the arbiter picks another). */
  const view = (): TournamentView | undefined => conn.state.tournament?.sections?.find((t) => t.section.id === selected) ?? conn.state.tournament;
  const send = (command: ConsoleCommand, what: string): void => {
    // Every tournament command names its section (an event console runs them all).
    const section = view()?.section.id;
    conn.send(section !== undefined && 'type' in command ? ({ ...command, section } as ConsoleCommand) : command, what);
  };

  // Values the arbiter chose survive redraws until sent; everything else shows the console's state.
  content.addEventListener('change', (event) => ((event.target as HTMLElement).dataset.touched = ''));
  content.addEventListener('input', (event) => ((event.target as HTMLElement).dataset.touched = ''));
  content.addEventListener('click', (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-t]');
    if (button?.dataset.t === 'history') {
      history = history === button.dataset.game ? undefined : button.dataset.game;
      render();
      return;
    }
    if (button?.dataset.t === 'print' || button?.dataset.t === 'print-slips') {
      // The print view of this page: A4, no controls (style.css @media print); the slips alone on demand.
      document.body.classList.toggle('print-slips', button.dataset.t === 'print-slips');
      window.print();
      document.body.classList.remove('print-slips');
      return;
    }
    if (!button || !arbiter) return;
    const d = button.dataset;
    const row = button.closest<HTMLElement>('[data-round]');
    const num = (k: string): number => Number(row?.dataset[k] ?? d[k]);
    for (const el of button.closest('tr, fieldset')?.querySelectorAll<HTMLElement>('[data-touched]') ?? []) delete el.dataset.touched;
    switch (d.t) {
      case 'enter': {
        const result = row?.querySelector<HTMLSelectElement>('select[name="result"]')?.value ?? '';
        if (!result) return;
        send({ type: 'enterResult', round: num('round'), white: num('white'), black: num('black'), result: result as (typeof RESULTS)[number], reason: reason() }, `Round ${num('round')} board ${num('board')}: result`);
        break;
      }
      case 'confirm':
        send({ type: 'confirmResult', round: num('round'), white: num('white'), black: num('black') }, `Round ${num('round')} board ${num('board')}: confirm`);
        break;
      case 'pair':
        send({ type: 'pairNextRound' }, 'Pair next round');
        break;
      case 'confirm-round':
        send({ type: 'confirmRound' }, 'Confirm every clock result');
        break;
      case 'swap':
        send({ type: 'swapColours', board: Number(d.board), reason: reason() }, `Draft board ${d.board}: swap colours`);
        break;
      case 'exchange': {
        const other = Number(content.querySelector<HTMLSelectElement>(`select[data-exchange="${d.board}"]`)?.value);
        if (other) send({ type: 'exchangeOpponents', board: Number(d.board), otherBoard: other, reason: reason() }, `Draft boards ${d.board} and ${other}: exchange opponents`);
        break;
      }
      case 'discard':
        send({ type: 'discardDraft', reason: reason() }, 'Discard draft');
        break;
      case 'publish':
        send({ type: 'publishRound' }, 'Publish round');
        break;
      case 'playoff':
        send({ type: 'startPlayoff' }, 'Start playoff');
        break;
      case 'playoff-ruling': {
        const winner = button.closest('div')?.querySelector<HTMLSelectElement>('select[name="winner"]')?.value;
        if (winner) send({ type: 'decidePlayoff', winner: Number(winner), reason: reason() }, 'Playoff: the chief arbiter\'s ruling');
        break;
      }
      case 'playoff-result': {
        const result = button.closest('tr')?.querySelector<HTMLSelectElement>('select[name="result"]')?.value;
        if (result) send({ type: 'playoffResult', game: d.game!, result: result as (typeof RESULTS)[number] }, `Playoff ${d.game}: result`);
        break;
      }
      case 'bye':
      case 'withdraw': {
        const form = button.closest('fieldset')!;
        const get = (n: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${n}"]`)!.value;
        const player = Number(get('player'));
        const round = Number(get('round'));
        if (d.t === 'bye') send({ type: 'requestBye', round, player, kind: get('kind') as 'half', reason: reason() }, `Bye for ${player} in round ${round}`);
        else send({ type: 'withdrawPlayer', player, fromRound: round, reason: reason() }, `Withdraw ${player} from round ${round}`);
        break;
      }
      case 'incident': {
        const form = button.closest('fieldset')!;
        const get = (n: string) => form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${n}"]`)!.value;
        const note = get('note').trim();
        send(
          { type: 'recordIncident', round: Number(get('round')), player: Number(get('player')), offence: get('offence') as 'late-arrival', ...(note ? { note } : {}) },
          'Record incident',
        );
        break;
      }
    }
  });

  const resultCell = (round: RoundPairings, g: PairedGame): string => {
    const shown = `<span class="result">${e(resultText(g.result))}</span>${g.source ? ` <span class="source ${g.source}">${SOURCE_TEXT[g.source]}</span>` : ''}`;
    if (!arbiter) return shown;
    const options = ['<option value="">–</option>', ...RESULTS.map((r) => `<option value="${r}" ${g.result === r ? 'selected' : ''}>${resultText(r)}</option>`)].join('');
    return `${shown}
      <span class="entry">
        <select name="result" aria-label="Result, round ${round.round} board ${g.board}">${options}</select>
        <button data-t="enter">Enter</button>
        ${g.source === 'clock' ? '<button class="primary" data-t="confirm">Confirm</button>' : ''}
      </span>`;
  };

  const roundTable = (round: RoundPairings): string => `
    <section class="t-round" aria-label="Round ${round.round}">
      <h2>Round ${round.round} <span class="badge">${round.status === 'live' ? 'on the clocks' : round.status}</span></h2>
      <table class="t-table pairings">
        <thead><tr><th>Board</th><th>White</th><th>Result</th><th>Black</th></tr></thead>
        <tbody>${round.games
          .map(
            (g) => `<tr data-round="${round.round}" data-board="${g.board}" data-white="${g.white.id}" data-black="${g.black.id}">
              <td>${g.board}${g.hallBoard !== undefined && g.hallBoard !== String(g.board) ? ` (${e(g.hallBoard)})` : ''}</td>
              <td>${e(g.white.name)} <small>(${g.white.id})</small></td>
              <td class="result-cell">${resultCell(round, g)}</td>
              <td>${e(g.black.name)} <small>(${g.black.id})</small></td>
            </tr>`,
          )
          .join('')}</tbody>
      </table>
      ${round.bye ? `<p>Bye: ${e(round.bye.name)}</p>` : ''}
      ${round.notPaired.length ? `<p>Not paired: ${round.notPaired.map((n) => `${e(n.name)} (${e(n.why)})`).join(', ')}</p>` : ''}
    </section>`;

  // A draft of the round on the clocks (paired at start) can only be published: its boards are set.
  const draftSection = (draft: DraftView, onClocks: boolean): string => `
    <section class="t-draft" aria-label="Draft of round ${draft.round}">
      <h2>Draft: round ${draft.round} <span class="badge bad">not published</span></h2>
      ${onClocks ? '<p class="warning">Paired at start and already on the boards: the clocks start once it is published.</p>' : ''}
      <table class="t-table">
        <thead><tr><th>Board</th><th>White</th><th>Black</th><th>Change</th></tr></thead>
        <tbody>${draft.games
          .map(
            (g) => `<tr data-draft-board="${g.board}">
              <td>${g.board}</td><td>${e(g.white.name)}</td><td>${e(g.black.name)}</td>
              <td class="entry">${onClocks ? '' : `
                <button data-t="swap" data-board="${g.board}">Swap colours</button>
                <select data-exchange="${g.board}" aria-label="Exchange opponents of board ${g.board} with">
                  ${draft.games.filter((o) => o.board !== g.board).map((o) => `<option value="${o.board}">board ${o.board}</option>`).join('')}
                </select>
                <button data-t="exchange" data-board="${g.board}">Exchange opponents</button>`}
              </td>
            </tr>`,
          )
          .join('')}</tbody>
      </table>
      ${draft.bye ? `<p>Bye: ${e(draft.bye.name)}</p>` : ''}
      ${draft.rematches.length ? `<p class="warning">Players who have met before: ${draft.rematches.map(e).join(', ')}</p>` : ''}
      ${draft.changes.length ? `<h3>Changes</h3><ol>${draft.changes.map((c) => `<li>${e(c.change)}: ${e(c.reason)} (${e(c.by)})</li>`).join('')}</ol>` : ''}
      <div class="round-actions">
        <button class="primary" data-t="publish">Publish round ${draft.round}</button>
        ${onClocks ? '' : '<button class="danger" data-t="discard">Discard draft</button>'}
      </div>
    </section>`;

  const pairingsPage = (v: TournamentView): string => {
    const next = v.nextRound;
    const pairControl =
      arbiter && next && !v.draft
        ? `<div class="round-actions"><button class="primary" data-t="pair" ${next.possible ? '' : 'disabled'}>Pair round ${next.round}</button>${next.why ? `<span class="hint">${e(next.why)}</span>` : ''}</div>
           <p class="hint" id="t-next-round">${
             next.possible
               ? `Round ${next.round - 1 > 0 ? `${next.round - 1} is complete` : '1 is not paired yet'}: <b>Pair round ${next.round}</b>, check the draft, then <b>Publish</b>: its boards go on the clocks here, and <b>Start all clocks</b> on the Clocks page starts them.`
               : `To continue into round ${next.round}: confirm every result of round ${next.round - 1} (<b>Confirm every clock result</b>), then pair it.`
           }</p>`
        : '';
    const confirmAll =
      arbiter && v.rounds.some((r) => r.round === v.liveRound && r.games.some((g) => g.source === 'clock'))
        ? `<div class="round-actions"><button data-t="confirm-round">Confirm every clock result of round ${v.liveRound}</button></div>`
        : '';
    const rounds = [...v.rounds].sort((a, b) => b.round - a.round);
    const nextNumber = Math.min(v.section.rounds, v.currentRound + 1);
    const absences = arbiter
      ? `<fieldset class="t-form"><legend>Byes and withdrawals</legend>
          <label>Player <select name="player">${playerOptions(v)}</select></label>
          <label>Round <input name="round" type="number" min="1" max="${v.section.rounds}" value="${nextNumber}" inputmode="numeric"></label>
          ${v.section.format === 'swiss' ? `<label>Bye <select name="kind"><option value="half">half point</option><option value="zero">zero</option></select></label><button data-t="bye">Request bye</button>` : ''}
          <button class="danger" data-t="withdraw">Withdraw from this round on</button>
        </fieldset>`
      : '';
    const unlinked = v.unlinkedBoards.length
      ? `<p class="warning">Not in section ${e(v.section.name)} (results not counted): ${v.unlinkedBoards.map((b) => `board ${e(b.board)} ${e(b.white)} – ${e(b.black)}`).join('; ')}</p>`
      : '';
    const current = v.rounds.find((r) => r.round === v.currentRound);
    const inSection = `section=${encodeURIComponent(v.section.id)}`;
    const exports = `<div class="exports">
        <button data-t="print">Print pairings</button>
        ${current ? '<button data-t="print-slips">Print result slips</button>' : ''}
        <a href="/api/pairings.csv?${inSection}&amp;round=${v.currentRound}" download="pairings-${e(v.section.id)}-round-${v.currentRound}.csv">Pairings of round ${v.currentRound} (CSV)</a>
        <a href="/api/standings.csv?${inSection}" download="standings-${e(v.section.id)}.csv">Standings (CSV)</a>
      </div>`;
    return `${unlinked}${exports}${confirmAll}${pairControl}${arbiter && v.draft ? draftSection(v.draft, v.draft.round === v.liveRound) : ''}${rounds.map(roundTable).join('') || '<p class="placeholder">No pairings yet.</p>'}${absences}${current ? resultSlips(v, current) : ''}`;
  };

  const crosstablePage = (v: TournamentView): string => {
    const c = v.crosstable;
    const rounds = Math.max(0, ...c.rows.map((r) => r.rounds.length));
    const head = `<tr><th>Rk</th><th>No</th><th>Name</th><th>Fed</th><th>Rtg</th>${Array.from({ length: rounds }, (_, i) => `<th>${i + 1}</th>`).join('')}<th>Pts</th>${c.columns.map((col) => `<th>${e(col)}</th>`).join('')}</tr>`;
    const corrected = correctionsByGame(v.corrections);
    const cell = (player: number, x: (typeof c.rows)[number]['rounds'][number]): string => {
      const text = `${x.opponent ?? ''}${x.colour ?? ''}${e(x.result === '=' ? '½' : x.result)}`;
      const game = x.opponent === null ? undefined : x.colour === 'w' ? `${x.round}:${player}:${x.opponent}` : `${x.round}:${x.opponent}:${player}`;
      const list = game === undefined ? undefined : corrected.get(game);
      if (!list) return `<td class="cell">${text}</td>`;
      const last = list.at(-1)!;
      return `<td class="cell corrected"><button data-t="history" data-game="${game}" aria-expanded="${history === game}" title="corrected ${e(resultText(last.from))} → ${e(resultText(last.to))} by ${e(last.by)}: ${e(last.reason)}">${text}<sup>✎</sup></button></td>`;
    };
    const shown = history === undefined ? undefined : corrected.get(history);
    const body = c.rows
      .map(
        (r) => `<tr data-player="${r.id}">
          <td>${r.rank}</td><td>${r.id}</td><td class="name">${e(r.name)}</td><td>${e(r.federation)}</td><td>${r.rating ?? ''}</td>
          ${r.rounds.map((x) => cell(r.id, x)).join('')}
          <td class="points">${number(r.points)}</td>
          ${c.columns.map((col) => `<td>${number(r.tiebreaks[col])}</td>`).join('')}
        </tr>`,
      )
      .join('');
    return `<div class="exports"><button data-t="print">Print crosstable</button><a href="/api/standings.csv" download="standings.csv">Standings (CSV)</a></div>
    <section aria-label="Crosstable">
      <h2>${e(c.section)} · after ${c.roundsPlayed} round${c.roundsPlayed === 1 ? '' : 's'}</h2>
      <div class="scroll"><table class="t-table crosstable"><thead>${head}</thead><tbody>${body}</tbody></table></div>
      ${c.tiedForFirst.length > 1 ? `<p>Tied for first: ${c.tiedForFirst.map((id) => e(c.rows.find((r) => r.id === id)?.name ?? String(id))).join(', ')}</p>` : ''}
      ${corrected.size > 0 ? '<p class="hint">✎ a corrected result: press the cell for its history.</p>' : ''}
    </section>
    ${shown ? correctionHistory(shown) : ''}`;
  };

  const playoffsPage = (v: TournamentView): string => {
    const p = v.playoff;
    const start =
      arbiter && !p ? `<div class="round-actions"><button class="primary" data-t="playoff" ${v.playoffPossible.possible ? '' : 'disabled'}>Start the playoff</button><span class="hint">${e(v.playoffPossible.why ?? '')}</span></div>` : '';
    if (!p) return `${start}<p class="placeholder">No playoff${v.playoffPossible.why ? `: ${e(v.playoffPossible.why)}` : ''}.</p>`;
    const games = p.games
      .map(
        (g) => `<tr data-game="${e(g.id)}">
          <td>${e(g.label)}</td><td>${e(g.white)}</td><td>${e(g.black)}</td><td>${e(g.timeControl)}${g.armageddon ? ' (Armageddon: a draw goes to Black)' : ''}</td>
          <td>${g.hallBoard !== undefined ? `board ${e(g.hallBoard)}` : ''}</td>
          <td>${g.result ? e(resultText(g.result)) : g.hallBoard !== undefined ? 'on the clock' : arbiter ? `<select name="result" aria-label="Result of ${e(g.label)}">${RESULTS.slice(0, 3).map((r) => `<option value="${r}">${resultText(r)}</option>`).join('')}</select> <button data-t="playoff-result" data-game="${e(g.id)}">Enter</button>` : 'to play'}</td>
        </tr>`,
      )
      .join('');
    return `<section aria-label="Playoff">
      <h2>Playoff <span class="badge">${e(p.state)}</span></h2>
      ${p.stage ? `<p>Stage ${e(p.stage)}</p>` : ''}
      ${p.winner ? `<p><strong>Winner: ${e(p.winner.name)}</strong></p>` : `<p>Still in: ${p.remaining.map((r) => e(r.name)).join(', ')}</p>`}
      ${p.message ? `<p class="warning">${e(p.message)}</p>` : ''}
      ${
        arbiter && p.state === 'arbiter-decision'
          ? `<div class="round-actions"><label>Winner <select name="winner">${p.remaining.map((r) => `<option value="${r.id}">${e(r.name)}</option>`).join('')}</select></label> <button data-t="playoff-ruling">Record the chief arbiter's ruling</button><span class="hint">with the reason above</span></div>`
          : ''
      }
      <table class="t-table"><thead><tr><th>Game</th><th>White</th><th>Black</th><th>Control</th><th>Hall board</th><th>Result</th></tr></thead><tbody>${games}</tbody></table>
      <h3>Log</h3><ol>${p.log.map((l) => `<li>${e(l)}</li>`).join('')}</ol>
    </section>`;
  };

  const finesPage = (v: TournamentView): string => {
    const f = v.fines;
    const money = (n: number, currency: string) => `${n.toLocaleString('en')} ${e(currency)}`;
    const incidentForm = arbiter
      ? `<fieldset class="t-form"><legend>Record an incident</legend>
          <label>Round <input name="round" type="number" min="1" max="${v.currentRound}" value="${v.currentRound}" inputmode="numeric"></label>
          <label>Player <select name="player">${playerOptions(v)}</select></label>
          <label>Offence <select name="offence"><option>late-arrival</option><option>electronic-device</option><option>device-noise</option><option>device-noise-after-game</option></select></label>
          <label>Note <input name="note" maxlength="200"></label>
          <button data-t="incident">Record</button>
        </fieldset>`
      : '';
    return `<section aria-label="Fines">
      <h2>Fines and sanctions</h2>
      ${incidentForm}
      ${
        f.entries.length
          ? `<table class="t-table"><thead><tr><th>Round</th><th>Player</th><th>Offence</th><th>Fine</th><th>Sanction</th><th>Note</th></tr></thead><tbody>${f.entries
              .map((x) => `<tr><td>${x.round}</td><td>${e(x.player)}</td><td>${e(x.offence)}</td><td>${money(x.fine, f.currency)}</td><td>${e(x.sanction)}</td><td>${e(x.note ?? '')}</td></tr>`)
              .join('')}</tbody></table>`
          : '<p class="placeholder">No fines or sanctions.</p>'
      }
    </section>
    <section aria-label="Prizes">
      <h2>Prizes ${v.playoff?.winner ? '' : '<span class="badge">as the standings are now</span>'}</h2>
      <table class="t-table"><thead><tr><th>Player</th><th>Prize</th><th>Amount</th><th>Fines</th><th>Paid</th></tr></thead><tbody>${v.prizes.awards
        .map((a) => `<tr><td>${e(a.name)}</td><td>${e(a.prize)}</td><td>${money(a.amount, v.prizes.currency)}</td><td>${money(a.fine, v.prizes.currency)}</td><td>${money(a.net, v.prizes.currency)}</td></tr>`)
        .join('')}</tbody></table>
      ${
        v.prizes.teams.length
          ? `<h3>Teams</h3><table class="t-table"><thead><tr><th>Rk</th><th>Team</th><th>Pts</th><th>Prize</th></tr></thead><tbody>${v.prizes.teams
              .map((t) => `<tr><td>${t.rank}</td><td>${e(t.team)}</td><td>${number(t.points)}</td><td>${money(t.prize, v.prizes.currency)}</td></tr>`)
              .join('')}</tbody></table>`
          : ''
      }
      ${v.prizes.excluded.length ? `<p>No prize (withdrew or forfeited): ${v.prizes.excluded.map((x) => e(x.name)).join(', ')}</p>` : ''}
    </section>`;
  };

  const render = (): void => {
    const v = view();
    if (reasonBar) reasonBar.hidden = current !== 'pairings';
    const sections = conn.state.tournament?.sections ?? (conn.state.tournament ? [conn.state.tournament] : []);
    sectionsBar.hidden = sections.length < 2;
    const options = sections.map((t) => `<option value="${e(t.section.id)}"${t.section.id === v?.section.id ? ' selected' : ''}>${e(t.section.name)}</option>`).join('');
    if (sectionSelect.innerHTML !== options) sectionSelect.innerHTML = options;
    if (!v) {
      content.innerHTML = '<p class="placeholder">This console runs no tournament section (start it with --event).</p>';
      return;
    }
    // Redrawing replaces the controls: keep the arbiter's place (focus and chosen values).
    const active = document.activeElement as HTMLElement | null;
    const activeKey = active && content.contains(active) ? keyOf(active) : undefined;
    const chosen = new Map([...content.querySelectorAll<HTMLSelectElement | HTMLInputElement>('[data-touched]')].map((el) => [keyOf(el), el.value]));
    const html = { pairings: pairingsPage, crosstable: crosstablePage, playoffs: playoffsPage, fines: finesPage }[current](v);
    content.innerHTML = html;
    for (const el of content.querySelectorAll<HTMLSelectElement | HTMLInputElement>('select, input')) {
      const value = chosen.get(keyOf(el));
      if (value === undefined) continue;
      el.value = value;
      el.dataset.touched = '';
    }
    if (activeKey) [...content.querySelectorAll<HTMLElement>('button, select, input')].find((el) => keyOf(el) === activeKey)?.focus();
  };

  return {
    show(page) {
      current = page;
      content.innerHTML = '';
      render();
    },
    render,
  };
}

/** Corrections by game ("round:white:black"), oldest first. */
function correctionsByGame(corrections: readonly ResultCorrection[]): Map<string, ResultCorrection[]> {
  const out = new Map<string, ResultCorrection[]>();
  for (const c of corrections) {
    const game = `${c.round}:${c.white.id}:${c.black.id}`;
    out.set(game, [...(out.get(game) ?? []), c]);
  }
  return out;
}

/** A corrected game's history under the crosstable: each result it had, who changed it, why, when. */
function correctionHistory(list: readonly ResultCorrection[]): string {
  const first = list[0]!;
  const when = (at: number): string => {
    const s = Math.floor(at / 1000);
    return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };
  return `<section class="correction-history" aria-label="Correction history">
    <h3>Round ${first.round}: ${e(first.white.name)} – ${e(first.black.name)}</h3>
    <table class="t-table"><thead><tr><th>Console time</th><th>Result</th><th>By</th><th>Reason</th></tr></thead><tbody>
      ${list.map((c) => `<tr><td>${when(c.at)}</td><td>${e(resultText(c.from))} → ${e(resultText(c.to))}</td><td>${e(c.by)}</td><td>${e(c.reason)}</td></tr>`).join('')}
    </tbody></table>
  </section>`;
}

/** One slip per game of the round, two to a row on A4, for the players to sign. */
function resultSlips(v: TournamentView, round: RoundPairings): string {
  const slip = (g: PairedGame) => `<div class="slip">
      <h4>${escapeHtml(v.event)} · round ${round.round} · board ${g.hallBoard ?? g.board}</h4>
      <p>White: ${escapeHtml(g.white.name)} (${g.white.id})</p>
      <p>Black: ${escapeHtml(g.black.name)} (${g.black.id})</p>
      <p>Result: 1-0 &#9744; &nbsp; ½-½ &#9744; &nbsp; 0-1 &#9744;</p>
      <p>Signatures: White ____________ Black ____________</p>
    </div>`;
  return `<div class="slips-host" aria-hidden="true"><div class="slips">${round.games.map(slip).join('')}</div></div>`;
}

function playerOptions(v: TournamentView): string {
  return v.crosstable.rows
    .slice()
    .sort((a, b) => a.id - b.id)
    .map((r) => `<option value="${r.id}">${r.id} ${escapeHtml(r.name)}</option>`)
    .join('');
}

/** A control's identity across redraws: its row and its role in the row. */
function keyOf(el: HTMLElement): string {
  const row = el.closest<HTMLElement>('tr, fieldset');
  const rowKey = row ? [row.dataset.round, row.dataset.board, row.dataset.draftBoard, row.dataset.game, row.tagName].join('/') : '';
  return `${rowKey}|${el.tagName}|${el.getAttribute('name') ?? ''}|${el.dataset.t ?? ''}|${el.dataset.exchange ?? ''}`;
}
