// The server: HTTP and WebSocket, the login gate, each client's session and the broadcast of the hall's
// and the desk's views, built off the event loop by the view worker.
export { builtPage } from './built-page.ts';
export { Coalescer } from './coalescer.ts';
export { type FolderTimers, type PgnFolder, startPgnFolder, writeAtomically } from './pgn-folder.ts';
export { type ConsoleServer, type ConsoleServerOptions, startConsoleServer } from './server.ts';
export { type BuilderSetup, type TournamentBuilder, ViewMaker, workerBuilder } from './tournament-builder.ts';
