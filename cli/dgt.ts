// `zeitnot dgt decode`: a protocol analyser for people debugging DGT hardware. Reads what a board sent
// (raw bytes, or hex text) on standard input and prints one JSON object per message or skipped stretch.
import { DgtDecoder, type DecodeOutput } from '../device-bridge/index.ts';
import { UsageError, type Command } from './command.ts';

const help = `zeitnot dgt: DGT e-board and clock tools (see docs/dgt.md).

  zeitnot dgt decode [--hex] < capture
      Decodes bytes a DGT board sent, from standard input, and prints one JSON object per line:
        {"type":"clock","right":{"ms":182000,"flag":false,"finalFlag":false,"timePerMove":true},
         "left":{...},"running":true,"leverHigh":"left","runningSide":"left",...}
        {"type":"fieldUpdate","square":52,"field":"e2","piece":"."}
        {"type":"clockAck","ack":[16,10,0,0],"ok":true,"auto":false,"command":10}
        {"type":"error","reason":"garbage","offset":0,"bytes":"01 02","count":2,"detail":"..."}
      and the decoder's counts on standard error at the end. Message types: boardDump, fieldUpdate,
      clock, noClock, clockBlank, clockAck, version, hardwareVersion, serialNumber, longSerialNumber,
      trademark, busAddress, battery, eeMoves, draughtsBoard, unknown; error reasons: garbage,
      bad-header, bad-length, truncated, bad-payload. Squares are the board's own numbering (a8 = 0).

options:
  --hex    standard input is hexadecimal text ("8D 00 0A 20 03 02 ...", "8d000a...", "0x8D,0x00");
           spaces, commas, colons, newlines and 0x prefixes are ignored
  --help   this text`;

/** Turns hex text arriving in chunks into bytes, in order with complaints about what is not hex. */
export class HexReader {
  private carry = '';
  private offset = 0;

  /** Bytes and errors in input order; a lone digit at the end waits for the next chunk. */
  push(text: string): (number[] | DecodeOutput)[] {
    const out: (number[] | DecodeOutput)[] = [];
    let digits = this.carry;
    const flush = () => {
      const whole = digits.length - (digits.length % 2);
      const bytes: number[] = [];
      for (let i = 0; i < whole; i += 2) bytes.push(parseInt(digits.slice(i, i + 2), 16));
      if (bytes.length > 0) out.push(bytes);
      this.offset += bytes.length;
      digits = digits.slice(whole);
    };
    const cleaned = text.replace(/0x/gi, ' ');
    for (const ch of cleaned) {
      if (/[0-9a-f]/i.test(ch)) digits += ch;
      else if (!/[\s,:;-]/.test(ch)) {
        flush();
        out.push({ type: 'error', reason: 'garbage', offset: this.offset, bytes: '', count: 0, detail: `'${ch}' in the hex input is not a hex digit` });
      }
    }
    flush();
    this.carry = digits;
    return out;
  }

  get leftover(): string {
    return this.carry;
  }
}

export async function decodeStream(
  input: AsyncIterable<Buffer | string>,
  options: { hex: boolean },
  print: (line: string) => void,
): Promise<DgtDecoder> {
  const decoder = new DgtDecoder();
  const hex = new HexReader();
  for await (const chunk of input) {
    const parts = options.hex
      ? hex.push(typeof chunk === 'string' ? chunk : chunk.toString('latin1'))
      : [typeof chunk === 'string' ? [...Buffer.from(chunk, 'latin1')] : [...chunk]];
    for (const part of parts) {
      if (Array.isArray(part)) for (const m of decoder.push(part)) print(JSON.stringify(m));
      else print(JSON.stringify(part));
    }
  }
  if (decoder.buffered > 0) {
    const detail = `input ended inside a message (${decoder.buffered} bytes kept)`;
    print(JSON.stringify({ type: 'error', reason: 'truncated', offset: -1, bytes: '', count: decoder.buffered, detail }));
  }
  if (hex.leftover) {
    print(JSON.stringify({ type: 'error', reason: 'garbage', offset: -1, bytes: '', count: 0, detail: 'an odd number of hex digits' }));
  }
  return decoder;
}

export const command: Command = {
  name: 'dgt',
  help,
  async run(args) {
    const [sub, ...rest] = args;
    const unknown = rest.filter((a) => a !== '--hex');
    const problem =
      sub !== 'decode'
        ? `zeitnot dgt: expected 'decode', got ${sub ? `'${sub}'` : 'nothing'} (zeitnot dgt --help)`
        : unknown.length > 0
          ? `zeitnot dgt decode: unknown option ${unknown.join(' ')}`
          : undefined;
    if (problem) {
      process.stderr.write(problem + '\n');
      return new UsageError(problem).exitCode;
    }
    const decoder = await decodeStream(process.stdin, { hex: rest.includes('--hex') }, (line) => process.stdout.write(line + '\n'));
    process.stderr.write(`${JSON.stringify({ stats: decoder.stats })}\n`);
    return 0;
  },
};
