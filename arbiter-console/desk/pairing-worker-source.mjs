// The pairing worker from the TypeScript sources (tests, benchmarks): a worker thread does not inherit
// its parent's loaders, so it registers tsx itself. The package runs dist/cli/pairing-worker.js.
import { register } from 'tsx/esm/api';

register();
await import('./pairing-worker.ts');
