// The console page: arbiter (with the token) or spectator (read-only, no command controls).
import { boardActions } from './actions.ts';
import { clocksPage } from './clocks-page.ts';
import { Connection, type Role } from './connection.ts';
import { renderNav } from './pages.ts';

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
  renderNav(document.getElementById('pages')!, 'clocks');

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
    onBadToken: (reason) => {
      sessionStorage.removeItem(TOKEN_KEY);
      toast(reason, false);
      setTimeout(() => location.reload(), 2500);
    },
  });
  const page = clocksPage(main, conn, role === 'arbiter', (board) => openActions(board));
  if (role === 'arbiter') openActions = boardActions(document.getElementById('actions') as HTMLDialogElement, conn);
  const frame = (): void => {
    page.tick();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  conn.connect();
}

start();
