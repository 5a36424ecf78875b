// The console page: arbiter (with the token) or spectator (read-only, no command controls).
import { boardActions } from './actions.ts';
import { clocksPage } from './clocks-page.ts';
import { Connection, type Role } from './connection.ts';
import { pageFromHash, renderNav } from './pages.ts';
import { tournamentPages, type TournamentPageId } from './tournament-pages.ts';

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

function start(): void {
  const spectatorPage = location.pathname === '/spectator';
  const token = spectatorPage ? undefined : takeToken();
  const role: Role = token ? 'arbiter' : 'spectator';
  const main = document.getElementById('page')!;
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
  const clocksRoot = document.createElement('div');
  const tournamentRoot = document.createElement('div');
  main.append(clocksRoot, tournamentRoot);
  let current = 'clocks';
  const toConfirm = (): number =>
    role === 'arbiter' ? (conn.state.tournament?.rounds.flatMap((r) => r.games).filter((g) => g.source === 'clock').length ?? 0) : 0;
  const showPage = (): void => {
    current = pageFromHash(location.hash);
    const hasTournament = conn.state.tournament !== undefined;
    if (current !== 'clocks' && !hasTournament) current = 'clocks';
    renderNav(nav, current, hasTournament, toConfirm());
    clocksRoot.hidden = current !== 'clocks';
    tournamentRoot.hidden = current === 'clocks';
    if (current !== 'clocks') tournament.show(current as TournamentPageId);
  };
  window.addEventListener('hashchange', showPage);

  let openActions: (board: string) => void = () => {};
  const conn = new Connection(role, token, {
    onState: (changed) => {
      const r = conn.state.round;
      if (r) {
        document.getElementById('event-name')!.textContent = r.event;
        document.getElementById('round-info')!.textContent = `Round ${r.round} · ${r.timeControl} · default time ${r.defaultTimeMs / 60_000} min`;
      }
      page.render(changed);
    },
    onStatus: (text, ok) => {
      statusEl.textContent = text;
      statusEl.className = `badge ${ok ? 'ok' : 'bad'}`;
    },
    onRole: (r) => (roleEl.textContent = r),
    onOutcome: (_id, ok, text) => toast(text, ok),
    onTournament: () => {
      if (nav.querySelector('[data-page="pairings"]') === null || current === 'clocks') showPage();
      else {
        renderNav(nav, current, true, toConfirm());
        tournament.render();
      }
    },
    onBadToken: (reason) => {
      sessionStorage.removeItem(TOKEN_KEY);
      toast(reason, false);
      setTimeout(() => location.reload(), 2500);
    },
  });
  const page = clocksPage(clocksRoot, conn, role === 'arbiter', (board) => openActions(board));
  const tournament = tournamentPages(tournamentRoot, conn, role === 'arbiter');
  showPage();
  if (role === 'arbiter') openActions = boardActions(document.getElementById('actions') as HTMLDialogElement, conn);
  const frame = (): void => {
    page.tick();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  conn.connect();
}

start();
