// The virtual StandardFirmata on its own: exact replies to the handshake, pin writes, input reports,
// I2C to the LCD model, and no crash on any byte stream.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ArduinoModel, createFirmataFirmware, createVirtualFirmataBoard, type DeviceEnd } from '../../simulators/internal.ts';

function memoryEnd() {
  const sent: number[] = [];
  let toDevice: (chunk: Buffer) => void = () => {};
  const end: DeviceEnd = {
    write: (data) => sent.push(...Buffer.from(data)),
    onData(listener) {
      toDevice = listener;
      return () => {};
    },
    hostConnected: true,
    close: async () => {},
  };
  return { end, sent, host: (bytes: number[]) => toDevice(Buffer.from(bytes)) };
}

describe('virtual StandardFirmata', () => {
  it('announces itself at boot and answers the handshake queries', () => {
    const link = memoryEnd();
    const firmware = createFirmataFirmware(link.end, new ArduinoModel(), 'AB');
    firmware.powerOn();
    // REPORT_VERSION 2.5, then QUERY_FIRMWARE 2.5 "AB" in 7-bit pairs.
    expect(link.sent).toEqual([0xf9, 2, 5, 0xf0, 0x79, 2, 5, 0x41, 0, 0x42, 0, 0xf7]);
    link.sent.length = 0;
    link.host([0xf0, 0x69, 0xf7]); // ANALOG_MAPPING_QUERY
    expect(link.sent).toEqual([0xf0, 0x6a, ...Array(14).fill(0x7f), 0, 1, 2, 3, 4, 5, 0xf7]);
    link.sent.length = 0;
    link.host([0xf0, 0x6b, 0xf7]); // CAPABILITY_QUERY: pin 0 and 1 (serial) have no modes
    expect(link.sent.slice(0, 5)).toEqual([0xf0, 0x6c, 0x7f, 0x7f, 0]);
    expect(link.sent.at(-1)).toBe(0xf7);
  });

  it('sets modes, writes ports and PWM, reports inputs, and feeds I2C to the LCD backpack', () => {
    const link = memoryEnd();
    const model = new ArduinoModel();
    createFirmataFirmware(link.end, model).powerOn();
    link.sent.length = 0;
    link.host([0xf4, 7, 1, 0xf4, 2, 0]); // pin 7 output, pin 2 input
    link.host([0x90, 0x04, 0x01]); // port 0: bit 2 (pull-up on the input) and bit 7 (high bit in the second byte)
    expect(model.output(7)).toBe(1);
    expect(model.read(2)).toBe(1);
    link.host([0xd0, 1]); // report port 0: the current inputs at once
    expect(link.sent).toEqual([0x90, 0x04, 0x00]);
    model.drive(2, 0);
    expect(link.sent.slice(3)).toEqual([0x90, 0x00, 0x00]);
    link.host([0xe6, 0x7f, 0x01]); // ANALOG_MESSAGE pin 6 = 255
    expect(model.duty(6)).toBe(255);
    // I2C write 0x27: 0x0C (EN high, data 0) then 0x08 (EN falls): one nibble latched.
    const before = model.lcd.executed;
    link.host([0xf0, 0x78, 0, 0, 0xf7, 0xf0, 0x76, 0x27, 0x00, 0x0c, 0x00, 0x08, 0x00, 0xf7]);
    expect(model.lcd.executed).toBe(before + 1);
  });

  it('never throws on arbitrary bytes and keeps working after them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (garbage) => {
        const link = memoryEnd();
        const model = new ArduinoModel();
        createFirmataFirmware(link.end, model).powerOn();
        link.host([...garbage]);
        link.host([0xf4, 9, 1, 0x91, 0x02, 0x00]); // pin 9 output, port 1 bit 1 = pin 9 high
        expect(model.output(9)).toBe(1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('virtual Firmata board (mock-firmata)', () => {
  it('is ready for johnny-five and keeps its pins apart from other boards', () => {
    const a = createVirtualFirmataBoard();
    const b = createVirtualFirmataBoard();
    expect(a.io.isReady).toBe(true);
    a.io.pinMode(13, 1);
    a.io.digitalWrite(13, 1);
    expect(a.output(13)).toBe(1);
    expect(b.output(13)).toBe(0);
    expect(a.io.pins[13]?.value).toBe(1);
    expect(b.io.pins[13]?.value).toBe(0);
  });
});
