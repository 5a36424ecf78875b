// Per-board actions in a dialog: every form sends one arbiter command; the answer shows as a toast.
import type { ArbiterCommand, BoardView } from '../protocol.ts';
import type { Connection } from './connection.ts';
import { escapeHtml } from './format.ts';

const sideSelect = (name = 'side') => `<select name="${name}"><option value="white">White</option><option value="black">Black</option></select>`;
const reasonInput = (value = '') => `<input name="reason" required maxlength="200" placeholder="reason (journal + PGN)" value="${escapeHtml(value)}">`;

export function boardActions(dialog: HTMLDialogElement, conn: Connection): (boardId: string) => void {
  dialog.addEventListener('submit', (e) => {
    const form = e.target as HTMLFormElement;
    e.preventDefault();
    const data = new FormData(form);
    const get = (k: string) => String(data.get(k) ?? '');
    const board = dialog.dataset.board!;
    const side = get('side') as 'white' | 'black';
    const ms = () => Math.round((Number(get('minutes')) * 60 + Number(get('seconds'))) * 1000);
    let command: ArbiterCommand | undefined;
    switch (form.dataset.action) {
      case 'pause': command = { type: 'pause', board, reason: get('reason') }; break;
      case 'resume': command = { type: 'resume', board }; break;
      case 'addTime': command = { type: 'addTime', board, side, ms: ms() * (get('sign') === '-' ? -1 : 1), reason: get('reason') }; break;
      case 'setTime': command = { type: 'setTime', board, side, ms: ms(), reason: get('reason') }; break;
      case 'setMoveCounter': command = { type: 'setMoveCounter', board, side, counter: get('counter') as 'presses' | 'moves', moves: Number(get('moves')), reason: get('reason') }; break;
      case 'penalty': command = { type: 'penalty', board, offender: get('offender') as 'white' | 'black', offence: get('offence') as 'illegal-move' | 'false-claim', reason: get('reason') }; break;
      case 'forfeit': command = { type: 'forfeit', board, side, reason: get('reason') }; break;
      case 'result': command = { type: 'result', board, result: get('result') as '1-0', termination: get('termination') }; break;
      case 'arrive': command = { type: 'arrive', board, side }; break;
    }
    if (command) conn.send(command, `Board ${board}: ${form.dataset.label ?? form.dataset.action}`);
  });
  dialog.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('[data-close]')) dialog.close();
  });

  return (boardId: string) => {
    const b: BoardView | undefined = conn.state.boards.get(boardId);
    if (!b) return;
    dialog.dataset.board = boardId;
    dialog.innerHTML = `
      <button class="close" data-close aria-label="Close">✕</button>
      <h2 id="actions-title">Board ${escapeHtml(b.id)}: ${escapeHtml(b.white)} – ${escapeHtml(b.black)}</h2>
      <form data-action="${b.status === 'paused' ? 'resume' : 'pause'}" data-label="${b.status === 'paused' ? 'resume' : 'pause'}">
        <fieldset><legend>Clock</legend>
          ${b.status === 'paused' ? '<button class="primary" data-command="resume">Resume</button>' : `${reasonInput('arbiter intervention')}<button class="primary" data-command="pause">Pause</button>`}
        </fieldset>
      </form>
      <form data-action="addTime" data-label="add time">
        <fieldset><legend>Add or remove time</legend>
          ${sideSelect()}
          <label>± <select name="sign"><option>+</option><option>-</option></select></label>
          <label>min <input name="minutes" type="number" min="0" max="600" value="2" inputmode="numeric"></label>
          <label>s <input name="seconds" type="number" min="0" max="59" value="0" inputmode="numeric"></label>
          ${reasonInput('Art. 12.5 external disturbance')}
          <button data-command="addTime">Add time</button>
        </fieldset>
      </form>
      <form data-action="setTime" data-label="set time">
        <fieldset><legend>Set time</legend>
          ${sideSelect()}
          <label>min <input name="minutes" type="number" min="0" max="600" value="30" inputmode="numeric"></label>
          <label>s <input name="seconds" type="number" min="0" max="59" value="0" inputmode="numeric"></label>
          ${reasonInput('Art. 6.10.2 clock correction')}
          <button data-command="setTime">Set time</button>
        </fieldset>
      </form>
      <form data-action="setMoveCounter" data-label="set move counter">
        <fieldset><legend>Move counter</legend>
          ${sideSelect()}
          <select name="counter"><option value="presses">clock presses</option><option value="moves">moves on the scoresheet</option></select>
          <label>moves <input name="moves" type="number" min="0" max="999" value="${b.presses.white}" inputmode="numeric"></label>
          ${reasonInput('Art. 6.10.2 move counter corrected')}
          <button data-command="setMoveCounter">Set counter</button>
        </fieldset>
      </form>
      <form data-action="penalty" data-label="penalty">
        <fieldset><legend>Penalty (opponent gets time)</legend>
          ${sideSelect('offender')}
          <select name="offence"><option value="illegal-move">illegal move (7.5)</option><option value="false-claim">incorrect claim (9.5)</option></select>
          ${reasonInput('Art. 7.5.5')}
          <button data-command="penalty">Apply penalty</button>
        </fieldset>
      </form>
      <form data-action="arrive" data-label="player arrived">
        <fieldset><legend>Arrival</legend>${sideSelect()}<button data-command="arrive">Player arrived</button></fieldset>
      </form>
      <form data-action="forfeit" data-label="forfeit">
        <fieldset><legend>Forfeit</legend>${sideSelect()}${reasonInput('Art. 6.7.1 default time expired')}<button class="danger" data-command="forfeit">Forfeit</button></fieldset>
      </form>
      <form data-action="result" data-label="result">
        <fieldset><legend>Result</legend>
          <select name="result"><option>1-0</option><option>0-1</option><option>1/2-1/2</option></select>
          <input name="termination" required maxlength="100" value="normal">
          <button class="danger" data-command="result">Record result</button>
        </fieldset>
      </form>`;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('input, select, button:not(.close)')?.focus();
  };
}
