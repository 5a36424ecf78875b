// A johnny-five Piezo controller for an active buzzer: it sounds while its pin is HIGH. johnny-five's
// default piezo controller toggles the pin from a microsecond timer in Node, which over Firmata means a
// busy loop and a rough tone; a buzzer that makes its own tone needs one write to start and one to stop,
// timed by the injected scheduler.
import type { Scheduler } from '../scheduler.ts';

interface PiezoComponent {
  readonly pin: number;
  readonly io: { pinMode(pin: number, mode: number): void; digitalWrite(pin: number, value: number): void; MODES: { OUTPUT: number } };
}

export function activeBuzzerController(scheduler: Scheduler): Record<string, PropertyDescriptor> {
  let stopTimer: unknown;
  return {
    initialize: {
      writable: true,
      value(this: PiezoComponent) {
        this.io.pinMode(this.pin, this.io.MODES.OUTPUT);
        this.io.digitalWrite(this.pin, 0);
      },
    },
    tone: {
      writable: true,
      value(this: PiezoComponent, _tone: number, durationMs: number) {
        scheduler.clearTimeout(stopTimer);
        this.io.digitalWrite(this.pin, 1);
        stopTimer = scheduler.setTimeout(() => this.io.digitalWrite(this.pin, 0), durationMs);
        return this;
      },
    },
    noTone: {
      writable: true,
      value(this: PiezoComponent) {
        scheduler.clearTimeout(stopTimer);
        this.io.digitalWrite(this.pin, 0);
        return this;
      },
    },
  };
}
