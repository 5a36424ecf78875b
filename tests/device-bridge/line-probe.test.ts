import { describe, expect, it } from 'vitest';
import { probeLineClock } from '../../device-bridge/index.ts';
import { createManualScheduler, createVirtualLineClock, mockSerialDevice } from '../../simulators/internal.ts';

describe('probeLineClock', () => {
  it('finds a line-protocol clock by its HELLO', async () => {
    const { binding, end } = mockSerialDevice('/dev/zeitnot-probe-0');
    const device = createVirtualLineClock({ end, scheduler: createManualScheduler(), name: 'ARDUINO-CLOCK', bootId: 'x9' });
    device.powerOn();
    expect(await probeLineClock({ path: '/dev/zeitnot-probe-0', binding })).toEqual({ version: 1, name: 'ARDUINO-CLOCK', bootId: 'x9' });
    device.powerOff();
  });

  it('says nothing answered when the port stays silent', async () => {
    const { binding } = mockSerialDevice('/dev/zeitnot-probe-1');
    expect(await probeLineClock({ path: '/dev/zeitnot-probe-1', binding, timeoutMs: 100 })).toBeUndefined();
  });

  it('reports a port that cannot be opened', async () => {
    await expect(probeLineClock({ path: '/dev/zeitnot-does-not-exist-7' })).rejects.toThrow();
  });
});
