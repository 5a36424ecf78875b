// `zeitnot dgt decode` and `zeitnot dgt moves`: tools for people debugging DGT hardware and auditing a board's log.
// decode reads what a board sent (raw bytes, or hex text) on standard input and prints one JSON object per
// message or skipped stretch; moves prints the game those bytes show.
import { DgtDecoder, PositionTracker, type DecodeOutput, type PositionEvent, type SignalledResult } from '../device-bridge/index.ts';
import { createManualScheduler } from '../simulators/index.ts';
import { parseOptions, UsageError, type Command } from './command.ts';

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

  zeitnot dgt moves [--hex] < capture
      Reads the same byte stream as a board's log and prints the game it shows, one JSON object per
      line: {"ply":1,"san":"e4","uci":"e2e4","fen":"..."} for each move, {"unexplained":{...}} where
      no legal moves explain the board and the game was re-seeded from the position it shows (with the
      candidates when several move orders fit), then {"resultSignal":"1-0"} when the players put
      both kings on the centre squares. On standard error: the takebacks, quarantined and unrecognised
      positions met on the way. The log has no timestamps: each clock message counts as one second and
      field updates as 250 ms apart (the board's scan), so pieces in motion are not read as moves; a
      lever change is the press of the side whose clock was running.

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

export async function decodeStream(input: AsyncIterable<Buffer | string>, options: { hex: boolean }, print: (line: string) => void): Promise<DgtDecoder> {
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

/** A byte log's game: the tracker on simulated time (see the help for the time model). */
export async function movesOfStream(
  input: AsyncIterable<Buffer | string>,
  options: { hex: boolean },
  print: (line: string) => void,
): Promise<{ counts: Record<string, number>; stats: DgtDecoder['stats'] }> {
  const scheduler = createManualScheduler();
  const counts: Record<string, number> = { takebacks: 0, ambiguous: 0, unrecognised: 0, reseeds: 0 };
  let signal: SignalledResult | undefined;
  const onEvent = (e: PositionEvent) => {
    if (e.type === 'takeback') counts.takebacks!++;
    else if (e.type === 'ambiguous') counts.ambiguous!++;
    else if (e.type === 'unrecognised') counts.unrecognised!++;
    else if (e.type === 'reseed') counts.reseeds!++;
    // A signal counts when it is the last word: moves after it mean play went on.
    if (e.type === 'resultSignal') signal = e.result;
    else if (e.type === 'move' || e.type === 'newGame') signal = undefined;
  };
  const tracker = new PositionTracker({ scheduler, onEvent });
  let running: 'left' | 'right' | 'none' = 'none';
  const decoder = await decodeStream(input, options, (line) => {
    const m = JSON.parse(line) as DecodeOutput;
    if (m.type === 'boardDump') tracker.boardDump(m.squares);
    else if (m.type === 'fieldUpdate') {
      scheduler.advanceBy(250);
      tracker.fieldUpdate(m.square, m.piece);
    } else if (m.type === 'clock') {
      scheduler.advanceBy(1000);
      if (running !== 'none' && m.runningSide !== 'none' && m.runningSide !== running) {
        const whiteSide = tracker.boardOrientation === 'rotated' ? 'right' : 'left';
        tracker.clockPressed(running === whiteSide ? 'white' : 'black');
      }
      if (m.runningSide !== 'none') running = m.runningSide;
    }
  });
  scheduler.advanceBy(10_000);
  tracker.settle();
  let ply = 0;
  for (const item of tracker.game) {
    if ('reseed' in item) {
      ply = plyOf(item.reseed.fen);
      print(JSON.stringify({ unexplained: item.reseed }));
    } else print(JSON.stringify({ ply: ++ply, san: item.move.san, uci: item.move.uci, fen: item.move.fen }));
  }
  if (signal) print(JSON.stringify({ resultSignal: signal }));
  tracker.dispose();
  return { counts, stats: decoder.stats };
}

function plyOf(fen: string): number {
  const [, turn = 'w', , , , full = '1'] = fen.split(' ');
  return (Number(full) - 1) * 2 + (turn === 'b' ? 1 : 0);
}

export const command: Command = {
  name: 'dgt',
  help,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub !== 'decode' && sub !== 'moves') throw new UsageError(`expected 'decode' or 'moves', got ${sub ? `'${sub}'` : 'nothing'} (zeitnot dgt --help)`);
    const hex = parseOptions(rest, { hex: { type: 'boolean' } }).values.hex ?? false;
    const out = (line: string) => process.stdout.write(line + '\n');
    if (sub === 'moves') {
      const { counts, stats } = await movesOfStream(process.stdin, { hex }, out);
      // No game can be read from bytes that hold no DGT message: say so rather than print nothing.
      if (stats.messages === 0) {
        const skipped = `${stats.garbageBytes} garbage bytes, ${stats.badHeaders} bad headers, ${stats.badLengths} bad lengths, ${stats.truncated} truncated, ${stats.badPayloads} bad payloads`;
        process.stderr.write(`zeitnot dgt moves: no DGT message decodes from the input (${skipped})${hex ? '' : '; for hexadecimal text give --hex'}\n`);
        return 1;
      }
      process.stderr.write(`${JSON.stringify(counts)}\n`);
      return 0;
    }
    const decoder = await decodeStream(process.stdin, { hex }, out);
    process.stderr.write(`${JSON.stringify({ stats: decoder.stats })}\n`);
    return 0;
  },
};
