import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDeviceSpec } from '../../arbiter-console/index.ts';

const serve = (...args: string[]) => spawnSync(process.execPath, ['bin/zeitnot.js', 'serve', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('zeitnot serve command line', () => {
  it('parses --device specs and names the expected form otherwise', () => {
    expect(parseDeviceSpec('3=dgt:/dev/ttyUSB0')).toEqual({ board: '3', kind: 'dgt', path: '/dev/ttyUSB0' });
    expect(parseDeviceSpec('A1=line:/tmp/pty:1')).toEqual({ board: 'A1', kind: 'line', path: '/tmp/pty:1' });
    expect(() => parseDeviceSpec('3=usb:/dev/x')).toThrow("--device '3=usb:/dev/x': expected BOARD=dgt:PATH, BOARD=line:PATH or BOARD=firmata:PATH");
  });

  it('prints its help, and refuses bad input with a clear message', () => {
    const help = serve('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--device BOARD=dgt:PATH');
    const dir = mkdtempSync(join(tmpdir(), 'zeitnot-cli-'));
    try {
      const noEvent = serve('--event', 'no-such-event.json', '--data', dir);
      expect(noEvent.status).toBe(2);
      expect(noEvent.stderr).toContain("--event 'no-such-event.json': no such file and no such preset");
      const badDevice = serve('--event', 'cairns-cup-2019', '--device', '9=dgt:/dev/null', '--data', dir, '--port', '0');
      expect(badDevice.status).toBe(1);
      expect(badDevice.stderr).toContain("the round has no board '9' (boards: 1, 2, 3, 4, 5)");
      // The token of a failed start was never shown, so it is not kept.
      expect(existsSync(join(dir, 'arbiter-token.scrypt'))).toBe(false);
      const badScale = serve('--event', 'cairns-cup-2019', '--time-scale', 'fast', '--data', dir);
      expect(badScale.status).toBe(2);
      expect(badScale.stderr).toContain("--time-scale 'fast': expected a non-negative number");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
