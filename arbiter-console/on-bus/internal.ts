// What the tests reach in on-bus/ beyond its public face (through arbiter-console/internal.ts).
export * from './index.ts';
export { hostCommands, type HostAnswer, type OutcomeAnswer } from './host-commands.ts';
