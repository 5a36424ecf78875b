// The command line as a pipeline stage (issue 24): a reader that stops early (`| head`) closes the pipe,
// and `zeitnot replay` and `zeitnot dgt decode` then end quietly with status 0, no EPIPE stack trace;
// `zeitnot dgt moves` on bytes that hold no DGT message says so and fails.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** Runs zeitnot with `stdin`, reads its first chunk of output, then closes the pipe as `head -1` does. */
function firstLineOnly(
  args: string[],
  stdin: Buffer | string = '',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; first: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'bin/zeitnot.js'), ...args], { cwd: root });
    let first = '';
    let stderr = '';
    child.stdout.once('data', (c: Buffer) => {
      first = c.toString().split('\n')[0]!;
      child.stdout.destroy();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => undefined); // the child may end before it has read everything
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, first, stderr }));
    child.stdin.end(stdin);
  });
}

function run(args: string[], stdin: Buffer | string = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(root, 'bin/zeitnot.js'), ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('piped into head', () => {
  it('zeitnot replay --pgn: a quiet exit', async () => {
    // 90 games audited under a 5-minute control: thousands of lines, far more than one pipe buffer.
    const pgn = resolve(root, 'tests/fixtures/oracles/clocks/tata_steel_2017_masters.pgn');
    const r = await firstLineOnly(['replay', '--pgn', pgn, '--time-control', '300+2']);
    expect(JSON.parse(r.first)).toHaveProperty('game', 1);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);

  it('zeitnot replay --think: a quiet exit', async () => {
    const think = Array.from({ length: 20_000 }, () => '1').join(',');
    const r = await firstLineOnly(['replay', '--time-control', '5400+30', '--think', think]);
    expect(JSON.parse(r.first)).toMatchObject({ ply: 1 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);

  it('zeitnot dgt decode: a quiet exit', async () => {
    const capture = readFileSync(resolve(root, 'tests/fixtures/oracles/dgt/arnsholt_dgtdriver/johan.inbytes'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => Buffer.from(l, 'base64'));
    const bytes = Buffer.concat(Array.from({ length: 40 }, () => Buffer.concat(capture)));
    const r = await firstLineOnly(['dgt', 'decode'], bytes);
    expect(JSON.parse(r.first)).toHaveProperty('type');
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('zeitnot dgt moves on input with no DGT message', () => {
  it('says so on stderr and exits 1', async () => {
    const r = await run(['dgt', 'moves'], 'hello, this is not a DGT log\n');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^zeitnot dgt moves: no DGT message decodes from the input \(29 garbage bytes, 0 bad headers, .*\); for hexadecimal text give --hex\n$/,
    );
  }, 60_000);
  it('the same for empty input and for hex text that holds none', async () => {
    expect((await run(['dgt', 'moves'])).code).toBe(1);
    const hex = await run(['dgt', 'moves', '--hex'], '01 02 03');
    expect(hex.code).toBe(1);
    expect(hex.stderr).toMatch(/no DGT message decodes from the input \(3 garbage bytes/);
    expect(hex.stderr).not.toMatch(/--hex/);
  }, 60_000);
});
