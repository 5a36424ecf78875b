// The DGT decoder is linear in its input over any chunk size: 10 MB of line noise in one push, or a real
// capture repeated to 2 MB, decodes in well under 2 s of CPU time, which a decoder that moves its buffer per
// message (O(n^2): 167 s for the same noise, 282 s for one 1 MB push) cannot meet by orders of
// magnitude. CPU time, not wall time, so a loaded machine does not make it flaky.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DgtDecoder } from '../../device-bridge/index.ts';
import { seededRandom } from '../../simulators/index.ts';

function seededBytes(length: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random.next() * 256);
  return bytes;
}

const capture = new URL('../fixtures/oracles/dgt/arnsholt_dgtdriver/johan.inbytes', import.meta.url);
const MB = 1024 * 1024;

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('DGT decoder in linear time', () => {
  it('decodes 10 MB of noise in one push in under 2 s, merging the noise into few errors', () => {
    const noise = seededBytes(10 * MB, 11);
    const decoder = new DgtDecoder();
    let errors = 0;
    const ms = cpuMs(() => {
      errors = decoder.push(noise).filter((m) => m.type === 'error').length;
    });
    expect(ms).toBeLessThan(2_000);
    const s = decoder.stats;
    // Every byte is accounted for: skipped, in a message, or held for the next chunk.
    expect(s.garbageBytes + s.badHeaders + s.badLengths).toBeGreaterThan(9 * MB);
    expect(errors).toBeLessThan(10_000);
  });

  it('decodes a real capture repeated to 2 MB (~400,000 messages) in one push in under 2 s, every message found', () => {
    const lines = readFileSync(capture, 'utf8')
      .split('\n')
      .filter((line) => line.trim());
    const once = Buffer.concat(lines.map((line) => Buffer.from(line.trim(), 'base64')));
    const copies = Math.ceil((2 * MB) / once.length);
    const whole = Buffer.concat(Array.from({ length: copies }, () => once));
    const single = new DgtDecoder();
    single.push(once);
    const decoder = new DgtDecoder();
    const ms = cpuMs(() => void decoder.push(whole));
    expect(ms).toBeLessThan(2_000);
    expect(decoder.stats.messages).toBe(single.stats.messages * copies);
  });

  it('gives the same messages whatever the chunk size', () => {
    const noise = seededBytes(64 * 1024, 5);
    const decode = (chunk: number) => {
      const decoder = new DgtDecoder();
      const out = [];
      for (let i = 0; i < noise.length; i += chunk) out.push(...decoder.push(noise.subarray(i, i + chunk)));
      return { messages: out.filter((m) => m.type !== 'error'), stats: decoder.stats };
    };
    const whole = decode(noise.length);
    for (const chunk of [1, 7, 4096]) expect(decode(chunk)).toEqual(whole);
  });
});

describe('noise costs one error per stretch, across reads', () => {
  const errorsOf = (bytes: Uint8Array, chunk: number) => {
    const decoder = new DgtDecoder();
    const errors = [];
    for (let i = 0; i < bytes.length; i += chunk) errors.push(...decoder.push(bytes.subarray(i, i + chunk)).filter((m) => m.type === 'error'));
    return { errors, stats: decoder.stats };
  };

  it('400 garbage bytes read one at a time are one error of 400 bytes, as in one read', () => {
    const garbage = Uint8Array.from({ length: 400 }, (_, i) => i % 128);
    const whole = errorsOf(garbage, garbage.length);
    expect(whole.errors).toEqual([
      { type: 'error', reason: 'garbage', offset: 0, bytes: expect.any(String), count: 400, detail: '400 byte(s) outside any message' },
    ]);
    for (const chunk of [1, 3, 64]) {
      const { errors, stats } = errorsOf(garbage, chunk);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ reason: 'garbage', offset: 0, count: 400 });
      expect(stats.garbageBytes).toBe(400);
    }
  });

  it('line noise of every kind: no more errors one byte a read than in one read', () => {
    const noise = seededBytes(400, 24);
    const whole = errorsOf(noise, noise.length).errors.length;
    expect(whole).toBeLessThanOrEqual(12);
    for (const chunk of [1, 2, 5]) expect(errorsOf(noise, chunk).errors.length, `chunk ${chunk}`).toBeLessThanOrEqual(whole);
  });
});
