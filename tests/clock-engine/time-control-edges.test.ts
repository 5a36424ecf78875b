// Issue 12, time controls: every string that no clock could play as written is refused with the
// position of the period at fault, by the parser, by the game clock and by `zeitnot replay` (exit 2, one
// line, no stack trace); what the notation writes on purpose still parses.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TimeControlError,
  applyClockEvent,
  assertPlayable,
  createGameClock,
  gameConfig,
  initialGameState,
  parseTimeControl,
  type ClockEvent,
  type TimeControl,
} from '../../clock-engine/index.ts';

const root = join(import.meta.dirname, '..', '..');

function refusal(text: string, options: Parameters<typeof parseTimeControl>[1] = {}): TimeControlError {
  try {
    parseTimeControl(text, options);
  } catch (e) {
    if (e instanceof TimeControlError) return e;
    throw e;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('a period before the last needs a move quota', () => {
  it.each([
    // The forgotten `40/` plays as 90+30 and the 30 minutes never come.
    ['5400+30:1800+30', 0],
    ['5400:1800', 0],
    ['40/5400:3600:1800', 8],
    ['G/90, SD/30', 0],
    ['90+30+30s', 0],
  ])('%j is refused at position %i', (text, position) => {
    const e = refusal(text);
    expect(e.position).toBe(position);
    expect(e.expected).toMatch(/move quota \("40\/\.\.\."\) on every period but the last, or the first-flag rule/);
  });

  it('unless the next period comes at the first flag (DGT "TIME" mode), said explicitly', () => {
    const tc = parseTimeControl('5400+30:1800+30', { nextPeriod: 'first-flag' });
    expect(tc.periods.map((p) => p.baseMs.white)).toEqual([5_400_000, 1_800_000]);
    expect(tc.nextPeriod).toBe('first-flag');
  });

  it('the quota forms still parse', () => {
    expect(parseTimeControl('40/5400+30:1800+30').periods[0]!.moves).toBe(40);
    expect(parseTimeControl('40/90, SD/30;inc30').periods[0]!.moves).toBe(40);
    expect(parseTimeControl('90/40+30+30s').periods[0]!.moves).toBe(40);
  });
});

describe('bounds on every number', () => {
  it.each([
    ['86401', 0, /at most 86400/],
    ['100000000000000000000', 0, /at most 86400/],
    ['40/86401:60', 3, /at most 86400/],
    ['1e20', 1, /":" \(next period\)/],
    ['5400+3601', 5, /increment seconds after "\+" of at most 3600/],
    ['1001/5400:60', 0, /move quota from 1 to 1000/],
    ['300+2@1001', 6, /move number after "@" of at most 1000/],
    ['G/1441', 2, /minutes of at most 1440/],
    ['W300-B86401', 6, /at most 86400/],
    ['1441+30s', 0, /minutes of at most 1440/],
  ])('%j is refused at position %i', (text, position, expected) => {
    const e = refusal(text);
    expect(e.position).toBe(position);
    expect(e.expected).toMatch(expected);
  });

  it('24 hours a period is still a control', () => {
    expect(parseTimeControl('86400').periods[0]!.baseMs.white).toBe(86_400_000);
  });

  it('the clock refuses a control built in code beyond the bounds, and instants beyond 2^53', () => {
    const huge: TimeControl = {
      periods: [{ baseMs: { white: 1e20, black: 1e20 }, bonus: { kind: 'none' } }],
      nextPeriod: 'quota-move',
      incrementCredit: 'before-move',
    };
    expect(() => initialGameState(gameConfig(huge))).toThrow(/at most 24 hours/);
    const config = gameConfig('300');
    const state = initialGameState(config);
    const event = { type: 'arrive', side: 'white', at: 2 ** 53, by: { kind: 'system' } } as ClockEvent;
    expect(applyClockEvent(config, state, event).state.alerts.at(-1)?.message).toMatch(/`at` is not a whole number of milliseconds/);
  });
});

describe('zero-time controls', () => {
  it.each([
    ['0', 0],
    ['G/0', 0],
    ['W0-B0', 0],
    ['W300-B0', 0],
    ['0+0', 0],
    ['0+2@61', 0],
    ['40/5400:0', 8],
  ])('%j is refused at position %i', (text, position) => {
    const e = refusal(text);
    expect(e.position).toBe(position);
    expect(e.expected).toMatch(/time on the clock|adds time/);
  });

  it('are accepted where the notation puts time on the clock on purpose: an increment or delay from move 1', () => {
    expect(parseTimeControl('0+1').periods[0]).toMatchObject({ baseMs: { white: 0 }, bonus: { kind: 'increment', ms: 1000 } });
    expect(parseTimeControl('0d5').periods[0]!.bonus).toEqual({ kind: 'delay', ms: 5000 });
    expect(parseTimeControl('40/5400+30:0+30').periods[1]!.baseMs.white).toBe(0);
  });
});

describe('special controls ? - *N', () => {
  it.each(['?', '-', '*60'])('%j parses (it is valid notation) but the game clock refuses it with a TimeControlError', (text) => {
    const tc = parseTimeControl(text);
    expect(() => assertPlayable(tc)).toThrow(TimeControlError);
    expect(() => initialGameState(gameConfig(tc))).toThrow(/a control a game clock can run/);
    // The actor is never started: its snapshot holds the refusal (XState keeps an error from the initial context).
    const snapshot = createGameClock(gameConfig(tc), { now: () => 0 }).getSnapshot();
    expect(snapshot.status).toBe('error');
    expect(snapshot.error).toBeInstanceOf(TimeControlError);
  });
});

function zeitnot(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/zeitnot.js', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('zeitnot replay refuses every one of them: exit 2, one line naming the position', () => {
  it.each([
    ['5400+30:1800+30', 'position 1: expected a move quota'],
    ['5400:1800', 'position 1: expected a move quota'],
    ['G/90, SD/30', 'position 1: expected a move quota'],
    ['90+30+30s', 'position 1: expected a move quota'],
    ['?', "position 1: expected a control a game clock can run, not '?' (unknown)"],
    ['-', "position 1: expected a control a game clock can run, not '-' (no time control)"],
    ['*60', "position 1: expected a control a game clock can run, not '*N' (sandclock)"],
    ['0', 'position 1: expected time on the clock'],
    ['G/0', 'position 1: expected time on the clock'],
    ['W0-B0', 'position 1: expected time on the clock'],
    ['40/5400:0', 'position 9: expected a period that adds time'],
    ['1e20', 'position 2'],
    ['100000000000000000000', 'position 1'],
  ])(
    '--time-control %j',
    async (text, message) => {
      const r = await zeitnot(['replay', '--time-control', text, '--think', '1000']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(message)]);
      expect(r.stderr).toMatch(/^zeitnot replay: --time-control: bad time control/);
    },
    60_000,
  );

  it('think times beyond 2^53 ms, alone or added up', async () => {
    for (const think of ['9007199254740993', `${2 ** 52},${2 ** 52}`]) {
      const r = await zeitnot(['replay', '--time-control', '300', '--think', think]);
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^zeitnot replay: --think item \d \('\d+'\) takes the game past 2\^53 ms$/)]);
    }
  }, 60_000);

  it('the first-flag rule, said explicitly, plays the control without a quota', async () => {
    const r = await zeitnot(['replay', '--time-control', '5400+30:1800+30', '--next-period', 'first-flag', '--think', '12000']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ply: 1, remainingMs: 5_448_000 });
  }, 60_000);
});
