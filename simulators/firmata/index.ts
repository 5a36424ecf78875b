// The virtual Arduino clock: a mock-firmata board with buttons, LEDs, buzzer and a 16x2 LCD.
export { createVirtualFirmataBoard, type VirtualFirmataBoard, type VirtualFirmataBoardOptions } from './virtual-board.ts';
export { ArduinoModel, type PinChange } from './arduino-model.ts';
export { Hd44780 } from './hd44780.ts';
export { createFirmataFirmware, type FirmataFirmware } from './firmata-firmware.ts';
