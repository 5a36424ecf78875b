// johnny-five 2.1.0 ships no types; only what the Firmata clock uses.
declare module 'johnny-five' {
  import { EventEmitter } from 'node:events';

  export interface BoardOptions {
    /** An IO object (firmata-io Board, mock-firmata...): with it johnny-five never loads serialport 8. */
    io?: unknown;
    id?: string;
    repl?: boolean;
    debug?: boolean;
    sigint?: boolean;
    timeout?: number;
  }
  export class Board extends EventEmitter {
    constructor(options?: BoardOptions);
    readonly isReady: boolean;
    readonly id: string;
    /** Every Board made so far (johnny-five's own list; components made without a board use the first). */
    static readonly cache: Board[];
  }
  export class Button extends EventEmitter {
    constructor(options: { pin: number | string; board?: Board; isPullup?: boolean; invert?: boolean; holdtime?: number });
    readonly isDown: boolean;
  }
  export class Led {
    constructor(options: { pin: number; board?: Board });
    on(): this;
    off(): this;
    stop(): this;
    readonly isOn: boolean;
  }
  export class Piezo {
    constructor(options: { pin: number; board?: Board; controller?: unknown });
    frequency(hz: number, ms: number): this;
    noTone(): this;
    off(): this;
  }
  export class LCD {
    constructor(options: { controller?: string; address?: number; rows?: number; cols?: number; board?: Board; pins?: number[] });
    print(text: string): this;
    cursor(row: number, col: number): this;
    clear(): this;
    on(): this;
    off(): this;
  }
  const five: { Board: typeof Board; Button: typeof Button; Led: typeof Led; Piezo: typeof Piezo; LCD: typeof LCD };
  export default five;
}
