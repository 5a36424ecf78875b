// DGT decoder throughput on a real capture, against what a 9600-baud line can deliver (960 bytes/s).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DgtDecoder } from '../device-bridge/index.ts';
import type { BenchRow } from './table.ts';

const capture = new URL('../tests/fixtures/oracles/dgt/arnsholt_dgtdriver/johan.inbytes', import.meta.url);
const lineBytesPerSecond = 960;

function throughput(bytes: Uint8Array, chunkSize: number, minMs = 1000): number {
  let processed = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    const decoder = new DgtDecoder();
    for (let i = 0; i < bytes.length; i += chunkSize) decoder.push(bytes.subarray(i, i + chunkSize));
    processed += bytes.length;
  }
  return processed / ((performance.now() - start) / 1000);
}

export async function run(): Promise<BenchRow[]> {
  // One base64 line per message, as captured.
  const lines = readFileSync(capture, 'utf8')
    .split('\n')
    .filter((line) => line.trim());
  const once = Buffer.concat(lines.map((line) => Buffer.from(line.trim(), 'base64')));
  // Repeated to 2 MiB so that a 1 MiB chunk is a chunk, not the whole input.
  const bytes = new Uint8Array(Buffer.concat(Array.from({ length: Math.ceil((2 << 20) / once.length) }, () => once)));
  const sizes: [number, string][] = [
    [1, '1-byte'],
    [4096, '4 KiB'],
    [1 << 20, '1 MiB'],
  ];
  return sizes.map(([chunk, name]) => {
    const bytesPerSecond = throughput(bytes, chunk);
    return {
      part: 'device-bridge',
      measure: `DGT decoder, ${name} chunks (real capture)`,
      value: `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`,
      target: `>= 100 x a 9600-baud line`,
      ok: bytesPerSecond >= 100 * lineBytesPerSecond,
    };
  });
}
