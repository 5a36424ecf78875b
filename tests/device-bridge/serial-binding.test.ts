// A hung-up tty reads 0 bytes for ever (what Linux does after a USB unplug or when a pty's other end
// goes): the port must report that as a disconnect, not read again (serialport/bindings-cpp#162, seen
// here as a Firmata clock that never noticed its cable pulled). Over a real pty and over a descriptor
// that reads 0 bytes at once (an empty file), so both the poller path and the read path are covered.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPortStream } from '@serialport/stream';
import { afterEach, expect, it } from 'vitest';
import { hangUpAware, nativeBinding } from '../../device-bridge/internal.ts';
import { openPtyPair } from '../support/pty.ts';
import { until } from '../support/wait.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('a read of 0 bytes ends the read with a disconnect error instead of reading again', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'zeitnot-hangup-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'empty'), '');
  const fd = openSync(join(dir, 'empty'), 'r');
  cleanups.push(() => closeSync(fd));
  let reads = 0;
  const port = {
    fd,
    isOpen: true,
    poller: { once: () => undefined },
    read: () => {
      reads++;
      return Promise.reject(new Error('the wrapper reads by itself'));
    },
  };
  const wrapped = hangUpAware(port as unknown as Parameters<typeof hangUpAware>[0]);
  await expect(wrapped.read(Buffer.alloc(16), 0, 16)).rejects.toMatchObject({ code: 'EHANGUP', disconnect: true });
  expect(reads).toBe(0);
});

it('the host side of a pty closes with a disconnect when the other end goes, twenty times running', { timeout: 120_000 }, async () => {
  const pair = await openPtyPair();
  cleanups.push(() => pair.close());
  for (let round = 1; round <= 20; round++) {
    const port = new SerialPortStream({ binding: nativeBinding, path: pair.a, baudRate: 9600, autoOpen: false });
    port.on('error', () => {});
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    let closedWith: (Error & { disconnected?: boolean }) | null | undefined;
    port.on('close', (error: (Error & { disconnected?: boolean }) | null) => (closedWith = error));
    port.on('data', () => {});
    await pair.unplug();
    await until(() => closedWith !== undefined, `the close of round ${round}`);
    expect(closedWith?.disconnected).toBe(true);
    await pair.replug();
  }
});
