// The virtual DGT board with clock, and the two ways to reach it.
export { VirtualDgtBoard, type VirtualDgtBoardOptions, type BoardMode, type Delivery, type ClockCommandRecord } from './virtual-board.ts';
export { VirtualClock, type VirtualClockOptions, type ClockSide, type ClockModel, type ClockSideState } from './virtual-clock.ts';
export { mockBoardLink, ptyBoardLink, type MockBoardLink, type PtyBoardLink } from './links.ts';
export { playOnDgtBoard, type PlayOnBoardOptions } from './play.ts';
