#!/usr/bin/env node
// `npm test`: the type check, the lint and the format check run beside `vitest run` rather than before
// it. Alone they keep one of two cores busy for about 40 s while the other idles; beside the test files
// they take their turn on the cores vitest leaves while its files wait (simulated time, child
// processes). Each check's output is printed whole when it ends, vitest's as it comes; `npm test`
// fails if any of the four fails, as it did when they ran one after another.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const checks = ['typecheck', 'lint', 'format:check'];

function run(command, args, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (buffered) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

const checked = checks.map(async (name) => {
  const { code, out } = await run(npm, ['run', '--silent', name], { buffered: true });
  process.stdout.write(`\nnpm run ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`}\n${out}`);
  return code === 0;
});
const vitestCli = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'vitest', 'vitest.mjs');
const tests = run(process.execPath, [vitestCli, 'run', ...process.argv.slice(2)], { buffered: false });
const [passed, vitest] = await Promise.all([Promise.all(checked), tests]);
const failedChecks = checks.filter((_, i) => !passed[i]);
if (failedChecks.length > 0) process.stdout.write(`npm test: ${failedChecks.join(', ')} failed\n`);
process.exitCode = failedChecks.length > 0 || vitest.code !== 0 ? 1 : 0;
