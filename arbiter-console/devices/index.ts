// The clocks and boards on the serial ports and sockets: opening them, their roles, who keeps time,
// and feeding their presses into the hall.
export { type DeviceSpec, type OpenedDevice, parseDeviceSpec, pressWithoutMove, unreadPresses, withDeviceTimekeepers } from './devices.ts';
export { startDevices } from './hall-devices.ts';
