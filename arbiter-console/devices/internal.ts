// What tests reach beyond index.ts.
export { explainPortError } from './devices.ts';
