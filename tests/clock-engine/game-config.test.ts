import { describe, expect, it } from 'vitest';
import { TimeControlError, gameConfig, parseTimeControl } from '../../clock-engine/index.ts';

describe('gameConfig', () => {
  it("fills what the event leaves unsaid with the Laws' own defaults, leaving optional fields unset", () => {
    expect(gameConfig('5400+30')).toStrictEqual({
      timeControl: parseTimeControl('5400+30'),
      scheduledStart: 0,
      defaultTimeMs: 0,
      lateArrival: 'forfeit',
      lawsEdition: '2023',
      category: 'standard',
      drawOfferMinMove: 0,
      quickplayClaim: false,
      armageddon: false,
    });
  });

  it('derives the FIDE category from the time control', () => {
    expect(gameConfig('5400+30').category).toBe('standard');
    expect(gameConfig('600+5').category).toBe('rapid');
    expect(gameConfig('300').category).toBe('blitz');
    expect(gameConfig(parseTimeControl('600+5')).category).toBe('rapid');
  });

  it('takes a parsed time control as it is', () => {
    const tc = parseTimeControl('40/5400+30:1800+30');
    expect(gameConfig(tc).timeControl).toBe(tc);
  });

  it("lets the event's settings win over every default", () => {
    const config = gameConfig('300', {
      scheduledStart: 10_000,
      defaultTimeMs: 30 * 60_000,
      lateArrival: 'arbiter-decides',
      lawsEdition: '2009',
      category: 'rapid',
      drawOfferMinMove: 30,
      quickplayClaim: true,
      armageddon: true,
      autoStart: true,
      timekeeper: 'device',
    });
    expect(config).toStrictEqual({
      timeControl: parseTimeControl('300'),
      scheduledStart: 10_000,
      defaultTimeMs: 30 * 60_000,
      lateArrival: 'arbiter-decides',
      lawsEdition: '2009',
      category: 'rapid',
      drawOfferMinMove: 30,
      quickplayClaim: true,
      armageddon: true,
      autoStart: true,
      timekeeper: 'device',
    });
  });

  it('rejects a bad time-control string with a TimeControlError', () => {
    expect(() => gameConfig('90 minutes please')).toThrow(TimeControlError);
    expect(() => gameConfig('')).toThrow(TimeControlError);
  });
});
