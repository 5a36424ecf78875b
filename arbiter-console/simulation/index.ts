// Simulated games for demos, tests and benches: virtual DGT boards playing the hall's games, the
// autopilot that runs an event's rounds, and the demo's late arrivals.
export { startAutopilot } from './autopilot.ts';
export { demoLateArrivals } from './demo.ts';
export { entryRatings, simulateEvent } from './event-simulation.ts';
export { type LateArrival, simulateRound, type Simulation } from './simulation.ts';
