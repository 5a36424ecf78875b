#!/usr/bin/env node
// The published entry stays plain JavaScript so `npx zeitnot` works straight after `npm ci`,
// with no build step: tsx compiles the TypeScript sources on load.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
