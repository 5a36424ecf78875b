import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeviceSpec } from '../../arbiter-console/index.ts';
import { presetJson } from '../../tournament/index.ts';

const serve = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', 'serve', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('zeitnot serve command line', () => {
  it('parses --device specs and names the expected form otherwise', () => {
    expect(parseDeviceSpec('3=dgt:/dev/ttyUSB0')).toEqual({ board: '3', kind: 'dgt', path: '/dev/ttyUSB0' });
    expect(parseDeviceSpec('A1=line:/tmp/pty:1')).toEqual({ board: 'A1', kind: 'line', path: '/tmp/pty:1' });
    expect(parseDeviceSpec('7=dgt:serial=01025')).toEqual({ board: '7', kind: 'dgt', path: 'serial 01025', serial: '01025' });
    expect(() => parseDeviceSpec('7=line:serial=01025')).toThrow('only a DGT board is found by its serial number');
    expect(() => parseDeviceSpec('3=usb:/dev/x')).toThrow(
      "--device '3=usb:/dev/x': expected BOARD=dgt:PATH, BOARD=dgt:serial=NNNNN, BOARD=line:PATH or BOARD=firmata:PATH",
    );
  });

  it('prints its help, and refuses bad input with a clear message', () => {
    const help = serve('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--device BOARD=dgt:PATH');
    // The command list says what serve runs: the event, not one round.
    const commands = spawnSync(process.execPath, ['bin/zeitnot.js', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(commands.stdout).toMatch(/^ {2}serve +run the arbiter console for a whole event, every section and round /m);
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-cli-'));
    try {
      const noEvent = serve('--event', 'no-such-event.json', '--data', dir);
      expect(noEvent.status).toBe(2);
      expect(noEvent.stderr).toContain("--event 'no-such-event.json': no such file and no such preset");
      const badDevice = serve('--event', 'cairns-cup-2019', '--device', '9=dgt:/dev/null', '--data', dir, '--port', '0');
      expect(badDevice.status).toBe(1);
      expect(badDevice.stderr).toContain("the hall has no board '9' (boards: 1, 2, 3, 4, 5)");
      // The token of a failed start was never shown, so it is not kept.
      expect(existsSync(join(dir, 'arbiter-token.hash'))).toBe(false);
      const badScale = serve('--event', 'cairns-cup-2019', '--time-scale', 'fast', '--data', dir);
      expect(badScale.status).toBe(2);
      expect(badScale.stderr).toContain("--time-scale 'fast': expected a non-negative number");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on every interface: prints the addresses for the tablets and warns that plain HTTP carries the tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-cli-'));
    try {
      expect(serve('--event', 'cairns-cup-2019', '--tls-cert', 'x.pem', '--data', dir).stderr).toContain('--tls-cert and --tls-key go together');
      const child = spawn(
        process.execPath,
        ['bin/zeitnot.js', 'serve', '--event', 'cairns-cup-2019', '--host', '0.0.0.0', '--port', '0', '--data', join(dir, 'data')],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += String(d)));
      child.stderr.on('data', (d) => (err += String(d)));
      const end = Date.now() + 30_000;
      while (!out.includes("hall's network") && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      expect(out).toMatch(/on the hall's network: (http:\/\/\d+\.\d+\.\d+\.\d+:\d+|this machine has no network address yet)/);
      expect(err).toContain("plain HTTP: the arbiters' tokens cross the network readable by anyone on it");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves an event file, every section, and prints the URL and the token once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-cli-'));
    const file = join(dir, 'event.json');
    writeFileSync(file, presetJson('cairns-cup-2019'));
    const start = async (): Promise<string> => {
      const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--event', file, '--port', '0', '--data', join(dir, 'data')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += String(d)));
      const end = Date.now() + 30_000;
      while (!out.includes('spectators:') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const url = /spectators:\s+(\S+)\/spectator/.exec(out)?.[1];
      if (url) {
        // Nothing is on the boards before the arbiter publishes round 1.
        const boards = (await (await fetch(`${url}/api/boards`)).json()) as { boards: unknown[] };
        expect(boards.boards).toHaveLength(0);
        const summary = (await (await fetch(`${url}/api/event`)).json()) as { sections: { rounds: number; roundsPlayed: number }[] };
        expect(summary.sections).toEqual([expect.objectContaining({ rounds: 9, roundsPlayed: 0 })]);
      }
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return out;
    };
    try {
      const first = await start();
      expect(first).toContain('2019 Cairns Cup: Cairns Cup (9 rounds, none paired yet)');
      expect(first).toMatch(/arbiter token \(shown once, stored only as a hash\): \S{24}/);
      const second = await start();
      expect(second).toContain('(resumed: the event rebuilt from the journal)');
      expect(second).not.toContain('arbiter token (shown once');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('runs the npm start demo: Cairns Cup round 1, five simulated DGT boards, a late player', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-demo-'));
    const child = spawn(process.execPath, ['bin/zeitnot.js', 'serve', '--demo', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    try {
      const end = Date.now() + 30_000;
      while (!out.includes('spectators:') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('zeitnot console: 2019 Cairns Cup: Cairns Cup (round 1 of 9), time x40');
      expect(out).toMatch(/arbiter page: http:\/\/localhost:\d+\/#token=\S{24}/);
      const url = /spectators:\s+(\S+)\/spectator/.exec(out)![1]!;
      type Api = {
        round: { timeControl: string; defaultTimeMs: number };
        boards: { presses: { white: number }; device?: { kind: string } }[];
        attention: { board: string; code: string }[];
      };
      let api: Api | undefined;
      const until = Date.now() + 30_000;
      do {
        await new Promise((r) => setTimeout(r, 500));
        api = (await (await fetch(`${url}/api/boards`)).json()) as Api;
      } while (Date.now() < until && !api.boards.some((b) => b.presses.white > 0));
      expect(api.round).toMatchObject({ timeControl: '40/5400+30:1800+30', defaultTimeMs: 1_800_000 });
      expect(api.boards.map((b) => b.device?.kind)).toEqual(['dgt', 'dgt', 'dgt', 'dgt', 'dgt']);
      expect(api.boards.some((b) => b.presses.white > 0)).toBe(true);
      expect(api.attention).toEqual(expect.arrayContaining([expect.objectContaining({ board: '3', code: 'late-player' })]));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('every command reads its options alike: an unknown one is one line naming it, status 2 (pair: 3)', () => {
    const commands: readonly [string[], number][] = [
      [['serve'], 2],
      [['hall-host'], 2],
      [['replay'], 2],
      [['dgt', 'decode'], 2],
      [['devices'], 2],
      [['standings'], 2],
      [['pairings'], 2],
      [['pair'], 3],
      [['bus', 'users'], 2],
      [['trf', 'check'], 2],
      [['import-trf'], 2],
    ];
    for (const [command, status] of commands) {
      const run = spawnSync(process.execPath, ['bin/zeitnot.js', ...command, '--no-such-option'], { encoding: 'utf8', timeout: 60_000, input: '' });
      expect(run.status, command.join(' ')).toBe(status);
      expect(run.stderr, command.join(' ')).toBe(`zeitnot ${command[0]}: unknown option '--no-such-option' (--help lists the options)\n`);
    }
    const missing = spawnSync(process.execPath, ['bin/zeitnot.js', 'pairings', '--round-robin'], { encoding: 'utf8', timeout: 60_000 });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('zeitnot pairings: --round-robin needs a value\n');
  }, 120_000);
});
