// Arduino clocks through johnny-five (Firmata): the host is the clock (docs/firmata.md).
export { createFirmataClock, type FirmataClock, type FirmataClockOptions, type FirmataIo } from './firmata-clock.ts';
export { defaultFirmataPins, firmataPinMap, type FirmataPinMap } from './pins.ts';
export { lcdRows, formatClockTime } from './lcd-layout.ts';
export { openFirmataLink, probeFirmata, type FirmataLink } from './firmata-io.ts';
