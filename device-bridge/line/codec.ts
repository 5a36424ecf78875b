// The zeitnot line protocol (docs/line-protocol.md): one ASCII line per message, `$BODY*HH`, where HH
// is the XOR of every byte of BODY in two upper-case hex digits (as NMEA 0183). Pure: strings in,
// messages out; parsing never throws.
import type { Side } from '../../clock-engine/index.ts';

export const LINE_PROTOCOL_VERSION = 1;
/** Longest line (without the line end) a host accepts; anything longer is garbage. */
export const MAX_LINE_LENGTH = 120;
/** Longest `TEXT` a device must be able to show. */
export const MAX_TEXT_LENGTH = 16;

/** Which clock runs: a side, or none (not started, paused, finished). */
export type Running = Side | 'none';
export type DeviceButton = 'pause' | 'arbiter' | 'start';
export type Lamp = 'off' | 'on' | 'blink';

/** Device to host. Event lines (`press`, `button`, `flag`) carry `seq` and are acknowledged. */
export type DeviceLine =
  | { readonly type: 'hello'; readonly version: number; readonly name: string; readonly bootId: string; readonly deviceMs: number }
  | {
      readonly type: 'press';
      readonly seq: number;
      readonly deviceMs: number;
      /** The side that pressed (completed a move). */
      readonly side: Side;
      /** Both displays right after the press (a clock that keeps its own time). */
      readonly reading?: { readonly white: number; readonly black: number };
    }
  | { readonly type: 'button'; readonly seq: number; readonly deviceMs: number; readonly button: DeviceButton }
  | { readonly type: 'flag'; readonly seq: number; readonly deviceMs: number; readonly side: Side }
  | {
      readonly type: 'heartbeat';
      readonly deviceMs: number;
      readonly running: Running;
      readonly white: number;
      readonly black: number;
    };

/** Host to device. */
export type HostLine =
  | { readonly type: 'query' }
  | { readonly type: 'mode'; readonly role: 'host' | 'mirror' }
  | { readonly type: 'time'; readonly white: number; readonly black: number; readonly running: Running }
  | { readonly type: 'lamp'; readonly lamp: Lamp }
  | { readonly type: 'beep'; readonly ms: number }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'ack'; readonly seq: number };

export type LineMessage = DeviceLine | HostLine;

export type ParsedLine = { readonly ok: true; readonly message: LineMessage } | { readonly ok: false; readonly error: string };

export function lineChecksum(body: string): string {
  let xor = 0;
  for (let i = 0; i < body.length; i++) xor ^= body.charCodeAt(i) & 0xff;
  return xor.toString(16).toUpperCase().padStart(2, '0');
}

/** The message as a complete line, `\r\n` included. */
export function formatLine(message: LineMessage): string {
  const body = fieldsOf(message).join(',');
  return `$${body}*${lineChecksum(body)}\r\n`;
}

const sideCode = (side: Side): string => (side === 'white' ? 'W' : 'B');
const runningCode = (running: Running): string => (running === 'none' ? '-' : sideCode(running));

function fieldsOf(message: LineMessage): Array<string | number> {
  switch (message.type) {
    case 'hello':
      return ['HELLO', message.version, safeText(message.name), safeText(message.bootId), ms(message.deviceMs)];
    case 'press':
      return message.reading
        ? ['PRESS', message.seq, ms(message.deviceMs), sideCode(message.side), ms(message.reading.white), ms(message.reading.black)]
        : ['PRESS', message.seq, ms(message.deviceMs), sideCode(message.side)];
    case 'button':
      return ['BUTTON', message.seq, ms(message.deviceMs), message.button.toUpperCase()];
    case 'flag':
      return ['FLAG', message.seq, ms(message.deviceMs), sideCode(message.side)];
    case 'heartbeat':
      return ['HB', ms(message.deviceMs), runningCode(message.running), ms(message.white), ms(message.black)];
    case 'query':
      return ['QUERY'];
    case 'mode':
      return ['MODE', message.role.toUpperCase()];
    case 'time':
      return ['TIME', ms(message.white), ms(message.black), runningCode(message.running)];
    case 'lamp':
      return ['LAMP', message.lamp.toUpperCase()];
    case 'beep':
      return ['BEEP', ms(message.ms)];
    case 'text':
      return ['TEXT', safeText(message.text).slice(0, MAX_TEXT_LENGTH)];
    case 'ack':
      return ['ACK', message.seq];
  }
}

/** Times on the wire are whole non-negative milliseconds (a flagged clock shows 0). */
function ms(value: number): number {
  return Math.max(0, Math.round(value));
}

/** Printable ASCII without the protocol's own separators. */
export function safeText(text: string): string {
  return text.replace(/[^\x20-\x7e]|[$*,]/g, '?');
}

/**
 * Reads one line (its line end already removed; a trailing `\r` is tolerated). Garbage before the last
 * `$` is reported, not silently glued to the message.
 */
export function parseLine(raw: string): ParsedLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.length > MAX_LINE_LENGTH) return fail(`line too long (${line.length} > ${MAX_LINE_LENGTH} characters)`);
  const start = line.lastIndexOf('$');
  if (start === -1) return fail(`no "$" in ${quote(line)}`);
  if (start > 0) return fail(`${start} stray characters before "$" in ${quote(line)}`);
  const star = line.lastIndexOf('*');
  if (star === -1 || star !== line.length - 3) return fail(`no "*HH" checksum at the end of ${quote(line)}`);
  const body = line.slice(1, star);
  const given = line.slice(star + 1);
  if (!/^[0-9A-Fa-f]{2}$/.test(given)) return fail(`checksum ${quote(given)} is not two hex digits`);
  const expected = lineChecksum(body);
  if (given.toUpperCase() !== expected) return fail(`checksum mismatch: line says ${given}, body gives ${expected} in ${quote(line)}`);
  if (/[^\x20-\x7e]|\*/.test(body)) return fail(`non-printable or reserved character in ${quote(line)}`);
  const [type = '', ...fields] = body.split(',');
  const message = readFields(type, fields);
  return typeof message === 'string' ? fail(`${type}: ${message}`) : { ok: true, message };
}

function fail(error: string): ParsedLine {
  return { ok: false, error };
}

function quote(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown);
}

/** A message, or why the fields are wrong. */
function readFields(type: string, fields: string[]): LineMessage | string {
  const count = (n: number): string | undefined => (fields.length === n ? undefined : `expected ${n} fields, got ${fields.length}`);
  const [a = '', b = '', c = '', d = '', e = ''] = fields;
  try {
    switch (type) {
      case 'HELLO':
        return count(4) ?? { type: 'hello', version: uint(a), name: b, bootId: c, deviceMs: uint(d) };
      case 'PRESS':
        if (fields.length === 3) return { type: 'press', seq: uint(a), deviceMs: uint(b), side: side(c) };
        return count(5) ?? { type: 'press', seq: uint(a), deviceMs: uint(b), side: side(c), reading: { white: uint(d), black: uint(e) } };
      case 'BUTTON':
        return count(3) ?? { type: 'button', seq: uint(a), deviceMs: uint(b), button: oneOf(c.toLowerCase(), ['pause', 'arbiter', 'start']) };
      case 'FLAG':
        return count(3) ?? { type: 'flag', seq: uint(a), deviceMs: uint(b), side: side(c) };
      case 'HB':
        return count(4) ?? { type: 'heartbeat', deviceMs: uint(a), running: running(b), white: uint(c), black: uint(d) };
      case 'QUERY':
        return count(0) ?? { type: 'query' };
      case 'MODE':
        return count(1) ?? { type: 'mode', role: oneOf(a.toLowerCase(), ['host', 'mirror']) };
      case 'TIME':
        return count(3) ?? { type: 'time', white: uint(a), black: uint(b), running: running(c) };
      case 'LAMP':
        return count(1) ?? { type: 'lamp', lamp: oneOf(a.toLowerCase(), ['off', 'on', 'blink']) };
      case 'BEEP':
        return count(1) ?? { type: 'beep', ms: uint(a) };
      case 'TEXT':
        return count(1) ?? { type: 'text', text: a };
      case 'ACK':
        return count(1) ?? { type: 'ack', seq: uint(a) };
      default:
        return `unknown message type ${quote(type)}`;
    }
  } catch (error) {
    return (error as Error).message;
  }
}

function uint(field: string): number {
  if (!/^\d{1,15}$/.test(field)) throw new Error(`${quote(field)} is not a whole number`);
  return Number(field);
}

function side(field: string): Side {
  if (field === 'W') return 'white';
  if (field === 'B') return 'black';
  throw new Error(`${quote(field)} is not a side (W or B)`);
}

function running(field: string): Running {
  return field === '-' ? 'none' : side(field);
}

function oneOf<T extends string>(field: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(field)) return field as T;
  throw new Error(`${quote(field)} is not one of ${allowed.join(', ')}`);
}
