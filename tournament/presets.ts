// Built-in events: the three regulations in docs/regulations/, as event files.
// The rules come from the regulation texts (and research §0 for Laws editions and time controls);
// players, clock times of day and prize amounts the texts do not give are marked "illustrative"
// in docs/event-file.md: an arbiter replaces them with the real entry list and prize fund.
import { loadEvent, type EventInput, type ZeitnotEvent } from './event.ts';

type PlayerInput = EventInput['sections'][number]['players'][number];

/** Illustrative entry list: ratings falling by `step` from `top`. */
function field(prefix: string, count: number, top: number, step: number, federation: string): PlayerInput[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `${prefix} ${String(i + 1).padStart(2, '0')}`,
    federation,
    fideRating: top - i * step,
  }));
}

/** Daily rounds at a fixed local time, skipping the given days of the month. */
function daily(year: number, month: number, firstDay: number, rounds: number, time: string, offset: string, restDays: number[] = []): string[] {
  const out: string[] = [];
  for (let day = firstDay; out.length < rounds; day += 1) {
    if (restDays.includes(day)) continue;
    out.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}:00${offset}`);
  }
  return out;
}

const armageddon = { timeControl: 'W300-B240', colour: 'drawing-of-lots', drawGoesTo: 'black' } as const;

const cairnsCup2019: EventInput = {
  zeitnotEvent: 1,
  id: 'cairns-cup-2019',
  name: '2019 Cairns Cup',
  city: 'Saint Louis',
  federation: 'USA',
  startDate: '2019-02-05',
  endDate: '2019-02-16',
  lawsEdition: 'L2018',
  drawRule: { minMoves: 30, appliesToPlayoffs: true },
  sections: [
    {
      id: 'main',
      name: 'Cairns Cup',
      format: { kind: 'round-robin', cycles: 1 },
      timeControl: '40/5400+30:1800+30',
      defaultTimeMinutes: 30,
      // Regulation 1: "Players more than 30 (thirty) minutes late for a round shall forfeit that round"
      // (the Laws 2018 would leave it to the arbiter: 6.7.1 "unless the arbiter decides otherwise").
      lateArrival: 'forfeit',
      lateArrivalRule: 'Cairns Cup Regulation 1: more than 30 minutes late, forfeit',
      schedule: daily(2019, 2, 6, 9, '13:00', '-06:00', [10, 14]),
      players: field('Cairns player', 10, 2560, 20, 'USA'),
      tiebreaks: ['DE', 'BPG', 'KS', 'SB', 'WON'],
      unplayedRules: '2023',
      sharedRanks: true,
      playoff: {
        kind: 'ladder',
        places: 'all',
        bySize: {
          '2': [
            { kind: 'match', games: 2, timeControl: '2700+5' },
            { kind: 'match', games: 2, timeControl: '600+5' },
            { kind: 'armageddon', timeControl: 'W300-B240' },
          ],
          '3-4': [
            { kind: 'round-robin', games: 1, timeControl: '1500+5', twoPlayerGames: 2 },
            { kind: 'round-robin', games: 1, timeControl: '600+5', twoPlayerGames: 2 },
            { kind: 'armageddon-series', timeControl: 'W300-B240' },
          ],
        },
        otherwise: 'arbiter-decision',
        armageddon,
      },
      fines: [
        { offence: 'late-arrival', amount: 1000, sanction: 'none' },
        { offence: 'electronic-device', amount: 1000, sanction: 'none' },
        { offence: 'device-noise', amount: 1000, sanction: 'forfeit' },
      ],
      prizes: {
        currency: 'USD',
        places: [45000, 30000, 20000, 15000, 10000, 8000, 7000, 6000, 5000, 4000],
        sharing: 'tiebreak',
        onePerPlayer: true,
        withdrawnOrForfeitedExcluded: true,
      },
    },
  ],
};

const donostiaGroup = (id: string, name: string, time: string, top: number, prefix: string): EventInput['sections'][number] => ({
  id,
  name,
  format: { kind: 'round-robin', cycles: 1 },
  timeControl: '5400+30',
  defaultTimeMinutes: 60,
  // Art. 6: "Players who arrive at the chessboard more than 60 minutes after the scheduled start will lose their games".
  lateArrival: 'forfeit',
  lateArrivalRule: 'Donostia Art. 6: more than 60 minutes late, loss',
  // Art. 3-5: 16:30 or 17:00, the last round at 16:00. Rest day (12 July) illustrative.
  schedule: [...daily(2009, 7, 7, 8, time, '+02:00', [12]), '2009-07-16T16:00:00+02:00'],
  players: field(prefix, 10, top, 25, 'ESP'),
  tiebreaks: ['BPG', 'WON', 'SB'],
  unplayedRules: '2023',
  sharedRanks: true,
  playoff: {
    kind: 'ladder',
    places: 1,
    bySize: {
      '2': [
        { kind: 'match', games: 2, timeControl: '300' },
        { kind: 'armageddon', timeControl: 'W300-B240' },
      ],
      '3+': [
        { kind: 'league-until-two', games: 1, timeControl: '300' },
        { kind: 'armageddon', timeControl: 'W300-B240' },
      ],
    },
    otherwise: 'arbiter-decision',
    armageddon,
  },
  fines: [],
  prizes: { currency: 'EUR', places: [3000, 2000, 1500, 1000, 800, 600, 500, 400, 300, 200], sharing: 'tiebreak', onePerPlayer: true },
});

const donostia2009: EventInput = {
  zeitnotEvent: 1,
  id: 'donostia-2009',
  name: 'Donostia Chess Festival 2009',
  city: 'San Sebastian',
  federation: 'ESP',
  startDate: '2009-07-07',
  endDate: '2009-07-16',
  lawsEdition: 'L2009',
  // Art. 7-8: in writing within one hour of the round's end, to a committee of 3 members of the other tournaments.
  appeals: { deadlineMinutes: 60, after: 'round', committee: { members: 3, fromOtherSections: true } },
  sections: [
    donostiaGroup('diputacion-foral', 'Tournament Diputacion Foral', '16:30', 2600, 'Diputacion player'),
    donostiaGroup('euskal-xake-eskola', 'Tournament Euskal Xake Eskola', '16:30', 2300, 'Eskola player'),
    donostiaGroup('donostia-2016', 'Tournament Donostia Capital Cultural 2016', '17:00', 2200, 'Capital player'),
    donostiaGroup('kutxa', 'Tournament Kutxa', '17:00', 2100, 'Kutxa player'),
  ],
};

/** Both SA Open 2009 sections: 11 rounds in 9 days, double rounds on 4 and 7 July (illustrative). */
const saOpenSchedule = [
  '2009-07-03T17:00:00+02:00',
  '2009-07-04T09:30:00+02:00',
  '2009-07-04T15:30:00+02:00',
  '2009-07-05T14:00:00+02:00',
  '2009-07-06T14:00:00+02:00',
  '2009-07-07T09:30:00+02:00',
  '2009-07-07T15:30:00+02:00',
  '2009-07-08T14:00:00+02:00',
  '2009-07-09T14:00:00+02:00',
  '2009-07-10T14:00:00+02:00',
  '2009-07-11T09:30:00+02:00',
];

/** SA Open field: RSA players carry both ratings (paired by the national one), guests FIDE only. */
function saOpenField(): PlayerInput[] {
  const federations = ['RSA', 'RSA', 'ZIM', 'RSA', 'NAM', 'RSA', 'BOT', 'RSA'];
  return Array.from({ length: 24 }, (_, i) => {
    const federation = federations[i % federations.length] ?? 'RSA';
    const fideRating = 2450 - i * 30;
    const player: PlayerInput = {
      id: i + 1,
      name: `Open player ${String(i + 1).padStart(2, '0')}`,
      federation,
      registered: i === 23 ? '2009-07-01' : '2009-06-20',
    };
    if (i !== 22) player.fideRating = fideRating;
    if (federation === 'RSA') player.nationalRating = fideRating + 40;
    return player;
  });
}

const saOpen2009: EventInput = {
  zeitnotEvent: 1,
  id: 'sa-open-2009',
  name: 'South African Open 2009',
  city: 'Cape Town',
  federation: 'RSA',
  startDate: '2009-07-03',
  endDate: '2009-07-11',
  lawsEdition: 'L2009',
  appeals: { deadlineMinutes: 30, after: 'game', fee: 200 },
  sections: [
    {
      id: 'open',
      name: 'Open Section',
      format: { kind: 'swiss', system: 'dutch', rounds: 11 },
      timeControl: '5400+30',
      quickplayFinish: false,
      defaultTimeMinutes: 30,
      // "Any player arriving more than 30 minutes late after the scheduled start of a game WILL LOSE the game on default."
      lateArrival: 'forfeit',
      lateArrivalRule: 'SA Open regulations: more than 30 minutes late, loss by default',
      schedule: saOpenSchedule,
      players: saOpenField(),
      teams: [
        { name: 'Club 1', members: [1, 9, 17, 6] },
        { name: 'Club 2', members: [4, 12, 20, 14] },
      ],
      tiebreaks: ['BH-M1', 'SB', 'TPR', 'PS'],
      unplayedRules: '2023',
      sharedRanks: true,
      playoff: { kind: 'none' },
      pairingRating: { default: 'fide', byFederation: { RSA: 'national' } },
      assignRatingsToUnratedAfterRound: 4,
      registrationDeadline: '2009-06-29',
      noShowWithdraws: true,
      fines: [
        { offence: 'device-noise', amount: 0, sanction: 'forfeit' },
        { offence: 'device-noise-after-game', amount: 0, sanction: 'point-deduction' },
      ],
      prizes: {
        currency: 'ZAR',
        places: [15000, 10000, 7000, 5000, 3000, 2000, 1000, 1000],
        sharing: 'equal',
        onePerPlayer: true,
        special: [{ name: 'Best under 2000', amount: 1500, maxRating: 1999 }],
        team: { members: 4, places: [2000, 1000] },
      },
    },
    {
      id: 'b',
      name: 'B Section',
      format: { kind: 'swiss', system: 'dutch', rounds: 11 },
      // "120/120": 120 minutes for the game, no increment (decision in docs/tournament-rules.md).
      timeControl: '7200',
      quickplayFinish: true,
      defaultTimeMinutes: 30,
      lateArrival: 'forfeit',
      lateArrivalRule: 'SA Open regulations: more than 30 minutes late, loss by default',
      schedule: saOpenSchedule,
      players: Array.from({ length: 20 }, (_, i) => ({
        id: i + 1,
        name: `B player ${String(i + 1).padStart(2, '0')}`,
        federation: 'RSA',
        nationalRating: 1480 - i * 25,
        birthDate: `${1993 + (i % 6)}-03-01`,
      })),
      tiebreaks: ['BH-M1', 'SB', 'TPR', 'PS'],
      unplayedRules: '2023',
      sharedRanks: true,
      playoff: { kind: 'none' },
      pairingRating: { default: 'national', byFederation: {} },
      assignRatingsToUnratedAfterRound: 4,
      registrationDeadline: '2009-06-29',
      noShowWithdraws: true,
      entry: { maxRating: 1500, maxAgeYears: 18 },
      fines: [
        { offence: 'device-noise', amount: 0, sanction: 'forfeit' },
        { offence: 'device-noise-after-game', amount: 0, sanction: 'point-deduction' },
      ],
      prizes: { currency: 'ZAR', places: [2000, 1200, 800], sharing: 'equal', onePerPlayer: true },
    },
  ],
};

const presetInputs = {
  'cairns-cup-2019': cairnsCup2019,
  'donostia-2009': donostia2009,
  'sa-open-2009': saOpen2009,
} as const;

export type PresetName = keyof typeof presetInputs;
export const presetNames = Object.keys(presetInputs) as PresetName[];

/** A fresh copy of a built-in event, checked like any event file. */
export function presetEvent(name: PresetName): ZeitnotEvent {
  const input = presetInputs[name];
  if (!input) throw new RangeError(`no preset '${String(name)}' (presets: ${presetNames.join(', ')})`);
  return loadEvent(structuredClone(input));
}

/** The preset as event-file JSON: a starting point for a real event. */
export const presetJson = (name: PresetName): string => JSON.stringify(presetInputs[name], null, 2);
