// The arbiter console's public face: what the command line, the benches and other parts use. Tests that
// reach further import internal.ts. The folders and the direction of their imports: docs/architecture.md.
import type { startHallHost as hallHost } from './on-bus/index.ts';
export { startConsole, type ConsoleOptions, type RunningConsole } from './console.ts';
export type { BoardView, Round, TrfImportPreview } from './contract/index.ts';
export { parseBoardRanges } from './contract/index.ts';
export { parseDeviceSpec } from './devices/index.ts';
export { PlayingHall, manualSource, realClock, type HallClock } from './hall/index.ts';
export { Journal, type JournalRecord } from './journal/index.ts';
export { inlinePairer, seatFor, TournamentDesk, workerPairer, type SwissPairer } from './desk/index.ts';
export { Coalescer, ViewMaker, workerBuilder, type BuilderSetup, type TournamentBuilder } from './server/index.ts';
export { demoLateArrivals } from './simulation/index.ts';
export { logLine, prepareDataDir, StartFailure, Teardown, type StartFailureCode, type TeardownFailure } from './start/index.ts';

/** A hall host (`zeitnot hall-host`): on-bus/ and the NATS client are loaded by it, not by every console's start. */
export async function startHallHost(...options: Parameters<typeof hallHost>): ReturnType<typeof hallHost> {
  return (await import('./on-bus/index.ts')).startHallHost(...options);
}
