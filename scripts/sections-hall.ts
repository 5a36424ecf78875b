// A console running round 1 of `sectionsHallEvent` (the SA Open's two sections at scale) in the state a
// chief arbiter meets twenty minutes into a big round: most players at their boards, a third of the
// boards waiting for a late player, arbiter calls, flags and a few results. The hall page test, the
// page bench and the docs' screenshots open it. Time is a manual clock: nothing moves unless told.
import { startConsole, manualSource, type JournalRecord, type RunningConsole } from '../arbiter-console/index.ts';
import { loadEvent } from '../tournament/index.ts';
import { sectionsHallEvent } from './hall-event.ts';

export interface SectionsHall {
  readonly run: RunningConsole;
  readonly source: ManualSource;
  /** Hall boards with Black absent (every third), White absent (every tenth), an arbiter call (every 40th), a flag (every 83rd). */
  readonly late: readonly string[];
}

const MIN = 60_000;
type ManualSource = ReturnType<typeof manualSource>;

export async function startSectionsHall(dataDir: string, open: number, b: number): Promise<SectionsHall> {
  const source = manualSource(0);
  const event = loadEvent(JSON.parse(sectionsHallEvent(open, b)));
  const run = await startConsole({ dataDir, port: 0, event, firstRound: true, source, lateStartMs: MIN });
  const hall = run.hall;
  const ids = [...hall.boards.keys()];
  const arrivals: JournalRecord[] = [];
  const late: string[] = [];
  ids.forEach((id, i) => {
    const absent = { white: i % 10 === 9, black: i % 3 === 2 };
    if (absent.white || absent.black) late.push(id);
    for (const side of ['white', 'black'] as const)
      if (!absent[side]) arrivals.push({ kind: 'clock', board: id, event: { type: 'arrive', side, at: 0, by: { kind: 'player', side } } });
  });
  hall.recordBatch(arrivals);
  hall.command({ type: 'startAll' }, 'IA Chief');
  source.set(MIN);
  ids.forEach((id, i) => {
    if (i % 83 === 5) hall.command({ type: 'setTime', board: id, side: 'white', ms: 2_000, reason: 'a flag to show' }, 'IA Chief');
  });
  source.set(20 * MIN);
  hall.recordBatch(
    ids.flatMap((id, i): JournalRecord[] =>
      i % 40 === 11 ? [{ kind: 'note', board: id, note: { type: 'arbiterCall', at: 20 * MIN, detail: 'player asks for the arbiter' } }] : [],
    ),
  );
  for (const [i, id] of ids.entries()) if (i % 97 === 3) hall.command({ type: 'result', board: id, result: '1/2-1/2', termination: 'agreement' }, 'IA Chief');
  return { run, source, late };
}
