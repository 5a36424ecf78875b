// The console's roles on the bus (bus/): a hall host that owns boards and publishes the journal, and
// consoles that join an event, project its stream and send their commands to the host.
export { type ConsoleBusOptions, type ConsoleOnBus, joinAsConsole, type LagWindow } from './bus-console.ts';
export { startHallHost } from './hall-host.ts';
