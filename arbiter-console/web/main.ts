// The console page: arbiter (with a token) or spectator (read-only, no command controls). Every page
// is a snabbdom view patched at most once per animation frame: the clocks page and the team page
// over ConsoleCtrl, the tournament pages over TournamentCtrl; clocks are painted every frame by
// ClockPainter.
import { ClockPainter } from './clocks.ts';
import { Connection, type Role } from './connection.ts';
import { ConsoleCtrl, firstScreenRows } from './ctrl.ts';
import { askConfirm, askText } from './dialogs.ts';
import { showJournalBanner } from './journal-banner.ts';
import { pageFromHash, renderNav } from './pages.ts';
import { hl, patch, type VNode } from './snabbdom.ts';
import { TournamentCtrl, type TournamentPageId } from './tournament-ctrl.ts';
import { cardsView } from './view/cards.ts';
import { hallControls, hallView } from './view/hall.ts';
import { panelView } from './view/panel.ts';
import { queueView } from './view/queue.ts';
import { teamView } from './view/team.ts';
import { tournamentView } from './view/tournament.ts';

const TOKEN_KEY = 'zeitnot-arbiter-token';

function takeToken(): string | undefined {
  const match = /token=([^&]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]!));
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

function toast(text: string, ok: boolean): void {
  const box = document.getElementById('toasts')!;
  const div = document.createElement('div');
  div.textContent = text;
  if (!ok) div.className = 'refused';
  div.setAttribute('role', ok ? 'status' : 'alert');
  box.append(div);
  setTimeout(() => div.remove(), ok ? 3000 : 7000);
}

function roundActions(ctrl: ConsoleCtrl): VNode | false {
  const role = ctrl.staffRole;
  if (!ctrl.arbiter || role === 'sector') return false;
  const conn = ctrl.conn;
  const armed = conn.state.round?.startAt !== undefined;
  return hl('div.round-actions', { attrs: { role: 'toolbar', 'aria-label': 'Round actions' } }, [
    hl(
      'button',
      {
        attrs: { 'data-command': 'arriveAll' },
        on: {
          click: async () =>
            (await askConfirm('Mark every player not yet marked as present?', 'Everyone is here')) && conn.send({ type: 'arriveAll' }, 'Everyone present'),
        },
      },
      'Everyone present',
    ),
    hl(
      'button.primary',
      { attrs: { 'data-command': 'startAll', disabled: armed }, on: { click: () => conn.send({ type: 'startAll' }, 'Start all') } },
      armed ? 'Round start set' : 'Start all at the scheduled time',
    ),
    hl(
      'button',
      {
        attrs: { 'data-command': 'pauseAll' },
        on: {
          click: async () => {
            const reason = await askText('Reason for pausing every clock?', 'arbiter: general interruption');
            if (reason) conn.send({ type: 'pauseAll', reason }, 'Pause all');
          },
        },
      },
      'Pause all',
    ),
    hl('button', { attrs: { 'data-command': 'resumeAll' }, on: { click: () => conn.send({ type: 'resumeAll' }, 'Resume all') } }, 'Resume all'),
    hl('span.hint', 'Tab to a board, Enter for its panel; the search box jumps to a board or a player.'),
  ]);
}

function clocksView(ctrl: ConsoleCtrl, clocks: ClockPainter): VNode {
  const boards = ctrl.visibleBoards();
  const alerted = new Set(ctrl.conn.state.attention.map((a) => a.board));
  return hl('div#clocks-root', [
    hl('div.layout', { class: { compact: ctrl.layout === 'hall' } }, [
      hl('section', { attrs: { 'aria-label': 'Boards' } }, [
        roundActions(ctrl),
        hallControls(ctrl, boards.length),
        ctrl.layout === 'hall' ? hallView(ctrl, clocks, boards, alerted) : cardsView(ctrl, clocks, boards, alerted),
      ]),
      queueView(ctrl),
    ]),
    panelView(ctrl, clocks),
  ]);
}

function start(): void {
  const spectatorPage = location.pathname === '/spectator';
  const token = spectatorPage ? undefined : takeToken();
  const role: Role = token ? 'arbiter' : 'spectator';
  const main = document.getElementById('page')!;
  // The hall's first screen as the server rendered it into the HTML (server/first-screen-html.ts): shown
  // until this page draws its own rows from the snapshot, or shows something else.
  let firstScreen = document.getElementById('first-screen');
  const dropFirstScreen = (): void => {
    firstScreen?.remove();
    firstScreen = null;
  };
  const statusEl = document.getElementById('connection')!;
  const roleEl = document.getElementById('role')!;
  roleEl.textContent = role;
  document.body.dataset.role = role;
  if (!spectatorPage && !token) {
    const login = document.getElementById('login')!;
    login.hidden = false;
    document.getElementById('login-form')!.addEventListener('submit', (e) => {
      e.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, (document.getElementById('token-input') as HTMLInputElement).value);
      location.reload();
    });
  }
  const nav = document.getElementById('pages')!;
  const clocksHost = document.createElement('div');
  const clocksMount = document.createElement('div');
  clocksHost.append(clocksMount);
  const teamHost = document.createElement('div');
  const teamMount = document.createElement('div');
  teamHost.append(teamMount);
  const tournamentHost = document.createElement('div');
  const tournamentMount = document.createElement('div');
  tournamentHost.append(tournamentMount);
  main.append(clocksHost, teamHost, tournamentHost);
  let current = 'clocks';
  let vnode: VNode | Element = clocksMount;
  let teamVnode: VNode | Element = teamMount;
  let tournamentVnode: VNode | Element = tournamentMount;
  let scheduled = false;

  const render = (): void => {
    scheduled = false;
    if (current === 'clocks' && !(firstScreen && conn.state.boards.size === 0)) {
      vnode = patch(vnode, clocksView(ctrl, clocks));
      // The page's own rows are in the document: the server's go in the same frame (never a frame without rows).
      dropFirstScreen();
    }
    if (current === 'team') teamVnode = patch(teamVnode, hl('div#team-root', teamView(ctrl)));
    if (!tournamentHost.hidden) tournamentVnode = patch(tournamentVnode, tournamentView(tournament));
  };
  const redraw = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(render);
  };

  const isChief = (): boolean => conn.state.arbiter?.role === 'chief';
  const toConfirm = (): number => (role === 'arbiter' && conn.state.tournament ? tournament.toConfirm(conn.state.tournament) : 0);
  const toDecide = (): number => (role === 'arbiter' ? tournament.toDecide() : 0);
  const showPage = (): void => {
    current = pageFromHash(location.hash);
    const hasTournament = conn.state.tournament !== undefined;
    if (current === 'team' && !isChief()) current = 'clocks';
    if (current !== 'clocks' && current !== 'team' && !hasTournament) current = 'clocks';
    renderNav(nav, current, hasTournament, toConfirm(), isChief(), toDecide());
    clocksHost.hidden = current !== 'clocks';
    teamHost.hidden = current !== 'team';
    tournamentHost.hidden = current === 'clocks' || current === 'team';
    document.body.dataset.page = current;
    if (current !== 'clocks') dropFirstScreen();
    if (!tournamentHost.hidden) tournament.show(current as TournamentPageId);
    if (current === 'team' && ctrl.credentials === undefined) ctrl.sendTeam({ type: 'listCredentials' }, 'List tokens');
    redraw();
  };
  window.addEventListener('hashchange', showPage);

  const conn: Connection = new Connection(role, token, firstScreenRows(), {
    onState: () => {
      const r = conn.state.round;
      if (r) {
        document.getElementById('event-name')!.textContent = r.event;
        document.getElementById('round-info')!.textContent = `Round ${r.round} · ${r.timeControl} · default time ${r.defaultTimeMs / 60_000} min`;
      }
      showJournalBanner(document.getElementById('journal-banner')!, conn.state.console, role === 'arbiter');
      ctrl.stateArrived();
    },
    onStatus: (text, ok) => {
      statusEl.textContent = text;
      statusEl.className = `badge ${ok ? 'ok' : 'bad'}`;
    },
    onRole: (r) => {
      const who = conn.state.arbiter;
      roleEl.textContent = who ? `${who.name} · ${who.role === 'sector' ? `sector ${who.sector ?? ''}` : who.role}` : r;
      ctrl.welcomed();
      showPage();
    },
    onOutcome: (id, ok, text) => {
      if (!ctrl.answered(id, ok, text)) toast(text, ok);
    },
    onAnswer: (id, answer) => ctrl.teamData(id, answer),
    onTournament: () => {
      if (nav.querySelector('[data-page="pairings"]') === null || current === 'clocks' || current === 'team') showPage();
      else {
        renderNav(nav, current, true, toConfirm(), isChief(), toDecide());
        redraw();
      }
    },
    onBadToken: (reason) => {
      sessionStorage.removeItem(TOKEN_KEY);
      toast(reason, false);
      setTimeout(() => location.reload(), 2500);
    },
  });
  const ctrl = new ConsoleCtrl(conn, role === 'arbiter', redraw);
  const clocks = new ClockPainter(ctrl);
  const tournament = new TournamentCtrl(conn, role === 'arbiter', redraw);
  showPage();
  const frame = (): void => {
    clocks.tick();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  conn.connect();
}

start();
