// DGT decoder throughput on a real capture, against what a 9600-baud line can deliver (960 bytes/s).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DgtDecoder } from '../device-bridge/index.ts';
import type { BenchRow } from './table.ts';

const capture = new URL('../tests/fixtures/oracles/dgt/arnsholt_dgtdriver/johan.inbytes', import.meta.url);
const lineBytesPerSecond = 960;

function throughput(bytes: Uint8Array, chunkSize: number, minMs = 500): number {
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
  const lines = readFileSync(capture, 'utf8').split('\n').filter((line) => line.trim());
  const bytes = new Uint8Array(Buffer.concat(lines.map((line) => Buffer.from(line.trim(), 'base64'))));
  return [1, 64].map((chunk) => {
    const bytesPerSecond = throughput(bytes, chunk);
    return {
      part: 'device-bridge',
      measure: `DGT decoder, ${chunk}-byte chunks (real capture)`,
      value: `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`,
      target: `>= 100 x a 9600-baud line`,
      ok: bytesPerSecond >= 100 * lineBytesPerSecond,
    };
  });
}
