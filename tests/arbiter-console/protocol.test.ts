import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, parseClientMessage } from '../../arbiter-console/internal.ts';

describe('client message validation', () => {
  it('accepts the documented messages', () => {
    const good = [
      { type: 'hello', role: 'spectator' },
      { type: 'hello', role: 'arbiter', token: 'abc', name: 'IA Smith', since: 12 },
      { type: 'resync' },
      { type: 'ping', id: 'p1' },
      { type: 'command', id: 'c1', command: { type: 'addTime', board: '3', side: 'black', ms: 120_000, reason: 'Art. 12.5' } },
      { type: 'command', id: 'c2', command: { type: 'setMoveCounter', board: '3', side: 'white', counter: 'presses', moves: 40, reason: 'r' } },
      { type: 'command', id: 'c3', command: { type: 'penalty', board: 'A1', offender: 'white', offence: 'false-claim', reason: 'Art. 9.5.3' } },
      { type: 'command', id: 'c4', command: { type: 'startAll' } },
      { type: 'command', id: 'c5', command: { type: 'result', board: '1', result: '1/2-1/2', termination: 'agreement' } },
    ];
    for (const message of good) expect(parseClientMessage(JSON.stringify(message))).toEqual({ ok: true, message });
  });

  it('refuses with a reason: not JSON, unknown type, missing reason, extra keys, wrong types', () => {
    expect(parseClientMessage('{nope')).toEqual({ ok: false, code: 'malformed', reason: 'not JSON' });
    const cases: [unknown, RegExp][] = [
      [{ type: 'launch' }, /type/],
      [{ type: 'hello', role: 'arbiter' }, /token: the arbiter role needs the token/],
      [{ type: 'hello', role: 'king' }, /role/],
      [{ type: 'command', id: 'c', command: { type: 'pause', board: '1' } }, /command\.reason/],
      [{ type: 'command', id: 'c', command: { type: 'pause', board: '1', reason: '   ' } }, /reason is required/],
      [{ type: 'command', id: 'c', command: { type: 'addTime', board: '1', side: 'white', ms: 1.5, reason: 'r' } }, /command\.ms/],
      [{ type: 'command', id: 'c', command: { type: 'addTime', board: '1', side: 'white', ms: 0, reason: 'r' } }, /must not be 0/],
      [{ type: 'command', id: 'c', command: { type: 'resume', board: '1', extra: true } }, /extra/],
      [{ type: 'command', id: 'c', command: { type: 'forfeit', board: '', side: 'white', reason: 'r' } }, /command\.board/],
      [[1, 2, 3], /./],
      [null, /./],
    ];
    for (const [message, reason] of cases) {
      const parsed = parseClientMessage(JSON.stringify(message));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.code).toBe('malformed');
        expect(parsed.reason).toMatch(reason);
      }
    }
  });

  it('refuses oversized messages before parsing them', () => {
    const big = JSON.stringify({ type: 'ping', id: 'x'.repeat(MAX_MESSAGE_BYTES) });
    expect(parseClientMessage(big)).toEqual({ ok: false, code: 'too-large', reason: `message of ${big.length} bytes exceeds ${MAX_MESSAGE_BYTES}` });
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ type: 'command', id: 'c', command: v })),
        ),
        (raw) => {
          const parsed = parseClientMessage(raw);
          expect(typeof parsed.ok).toBe('boolean');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
