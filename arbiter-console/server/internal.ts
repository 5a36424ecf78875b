// What tests reach beyond index.ts.
export { ClientSession, type SessionHost, type SessionLimits } from './client-session.ts';
export type { Pending } from './coalescer.ts';
export { inlineBuilder } from './tournament-builder.ts';
export { withFirstScreen } from './first-screen-html.ts';
