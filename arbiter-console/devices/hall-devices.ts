// A hall's devices (a console's or a hall host's): each opened on its board, its trouble that board's
// trouble (a port that fails to open leaves its board disconnected, journaled with the cause and the
// fix, and is tried again; the others come up), and mirrored clocks compared with the engine.
import type { PlayingHall } from '../hall/index.ts';
import { explainPortError } from '../../device-bridge/index.ts';
import { actedOn, openDevice, type DeviceSpec, type OpenedDevice } from './devices.ts';
import type { HallClock } from '../hall/index.ts';

export interface DeviceStart {
  /** Where a first failure is told ("tries again every few seconds"). */
  readonly warnings: string[];
  /** Filled with each device as it comes up (a retried one later); the caller closes them. */
  readonly opened: OpenedDevice[];
}

/** Opens every device on its board; returns what stops the retries and the comparison (not the devices). */
export async function startDevices(hall: PlayingHall, specs: readonly DeviceSpec[], source: HallClock, out: DeviceStart): Promise<() => void> {
  const retries = new Map<string, ReturnType<typeof setTimeout>>();
  const detach: (() => void)[] = [];
  let stopping = false;
  const bringUp = async (spec: DeviceSpec, attempt: number): Promise<void> => {
    let opened: OpenedDevice | undefined;
    let detachDevice: (() => void) | undefined;
    try {
      // A line clock's events already journaled (a retransmission after a restart is not taken twice).
      const acted = spec.kind === 'line' ? actedOn([...hall.journal.entriesOf(spec.board)].map((e) => e.record)) : undefined;
      // The device's timers on the hall's own clock (an injected one in tests: exact readings); the time
      // control of whichever game is on the board when the clock is heard again after an unplug.
      opened = await openDevice(spec, source, hall.boards.get(spec.board)?.state, acted, () => hall.boards.get(spec.board)?.config.timeControl);
      detachDevice = hall.attachDevice(opened.device);
      // A resumed game: a mirrored clock learns whose move the journal says it is before its first
      // reading; a host-driven one shows the journal's time and knows whose button counts.
      const seated = hall.boards.get(spec.board);
      if (seated) opened.device.show(seated.state, source.now());
      await opened.open();
      out.opened.push(opened);
      detach.push(detachDevice);
    } catch (error) {
      detachDevice?.();
      await opened?.close().catch(() => {});
      if (stopping) return;
      const detail = explainPortError(spec.path, error);
      hall.record({
        kind: 'note',
        board: spec.board,
        note: { type: 'connection', at: source.now(), state: 'disconnected', detail: `${detail}; trying again` },
      });
      if (attempt === 0) out.warnings.push(`board ${spec.board}: ${detail}; it is tried again every few seconds`);
      const timer = setTimeout(() => void bringUp(spec, attempt + 1), Math.min(30_000, 2_000 * 2 ** Math.min(attempt, 4)));
      timer.unref();
      retries.set(spec.board, timer);
    }
  };
  await Promise.all(specs.map((spec) => bringUp(spec, 0)));
  const stopWatch = watchMirroredClocks(hall, out.opened);
  return () => {
    stopping = true;
    for (const t of retries.values()) clearTimeout(t);
    stopWatch();
    for (const d of detach) d();
  };
}

/**
 * Between presses a mirrored clock can still drift from the engine (adjusted by hand, or the console's
 * own correction that the clock never got): compare once a second and journal a disagreement when a
 * side starts to be more than 2 s apart (once per episode, not every second).
 */
function watchMirroredClocks(hall: PlayingHall, devices: readonly OpenedDevice[]): () => void {
  const apart = new Map<string, string>();
  const timer = setInterval(() => {
    // Read each time: a device whose port came up late (retried) joins the list.
    for (const d of devices.filter((x) => x.compare !== undefined)) {
      const board = hall.boards.get(d.device.boardId);
      if (!board || board.state.status === 'finished') continue;
      const alert = d.compare?.(board.state);
      const key = alert ? (alert.side ?? '-') : '';
      if (alert && key !== apart.get(board.id)) {
        hall.record({ kind: 'note', board: board.id, note: { type: 'disagreement', at: alert.at, detail: `between presses, ${alert.message}` } });
      }
      apart.set(board.id, key);
    }
  }, 1_000);
  timer.unref();
  return () => clearInterval(timer);
}
