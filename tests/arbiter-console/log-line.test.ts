// A running console's log lines carry the time they were written, so they can be read beside the journal.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logLine } from '../../arbiter-console/index.ts';

const collect = (stream: PassThrough): string => (stream.read() as Buffer | null)?.toString('utf8') ?? '';

describe('logLine', () => {
  it('starts each line with the UTC time in ISO 8601, then the source', () => {
    const out = new PassThrough();
    logLine(out, 'zeitnot serve', 'bus: reconnected', () => new Date(Date.UTC(2026, 11, 5, 9, 30, 1, 250)));
    expect(collect(out)).toBe('2026-12-05T09:30:01.250Z zeitnot serve: bus: reconnected\n');
  });

  it('keeps a message with newlines on one line', () => {
    const out = new PassThrough();
    logLine(out, 'zeitnot hall-host', 'lost the bus\n  retrying', () => new Date(0));
    expect(collect(out)).toBe('1970-01-01T00:00:00.000Z zeitnot hall-host: lost the bus retrying\n');
  });
});
