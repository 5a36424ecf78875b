// Where the clock's parts are wired on the Arduino. Defaults for an UNO (docs/firmata.md has the diagram).

export interface FirmataPinMap {
  /** Push buttons from pin to GND (internal pull-up on), one per player. */
  readonly whiteButton: number;
  readonly blackButton: number;
  readonly pauseButton: number;
  readonly arbiterButton: number;
  /** LEDs (with resistors) from pin to GND. */
  readonly whiteLed: number;
  readonly blackLed: number;
  readonly flagLed: number;
  /** An active buzzer (sounds on a DC level) from pin to GND. */
  readonly buzzer: number;
  /** I2C address of the 16x2 LCD's PCF8574 backpack (on SDA/SCL = A4/A5 on an UNO). */
  readonly lcdAddress: number;
}

export const defaultFirmataPins: FirmataPinMap = {
  whiteButton: 2,
  blackButton: 3,
  pauseButton: 4,
  arbiterButton: 5,
  whiteLed: 6,
  blackLed: 7,
  flagLed: 8,
  buzzer: 9,
  lcdAddress: 0x27,
};

/** The defaults with `overrides` applied; rejects two parts on one pin. */
export function firmataPinMap(overrides: Partial<FirmataPinMap> = {}): FirmataPinMap {
  const pins = { ...defaultFirmataPins, ...overrides };
  const used = new Map<number, string>();
  for (const [part, pin] of Object.entries(pins)) {
    if (part === 'lcdAddress') continue;
    if (!Number.isInteger(pin) || pin < 0) throw new RangeError(`pin for ${part} must be a pin number, got ${pin}`);
    const other = used.get(pin);
    if (other) throw new RangeError(`pin ${pin} is wired to both ${other} and ${part}`);
    used.set(pin, part);
  }
  return pins;
}
