#!/usr/bin/env node
// Runs one TypeScript file (benchmarks, scripts) through tsx without a build step.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const file = process.argv[2];
if (!file) {
  console.error('usage: run-ts.js FILE.ts [args...]');
  process.exit(3);
}
register();
process.argv.splice(2, 1);
await import(pathToFileURL(resolve(file)).href);
