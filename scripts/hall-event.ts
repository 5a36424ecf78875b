// The generated event of the hall demo and the hall-bus bench (docs/hall.md): the South African Open
// 2009's open section (a Dutch Swiss, 90 minutes + 30 s a move) with as many players as the boards
// need, two a board, and nothing else (no second section, teams or prizes).
import { presetJson } from '../tournament/index.ts';

export function hallEvent(boards: number, id = 'hall-demo'): string {
  const event = JSON.parse(presetJson('sa-open-2009')) as {
    id: string;
    name: string;
    sections: { id: string; players: unknown[]; teams?: unknown; prizes?: unknown }[];
    prizes?: unknown;
  };
  const open = event.sections[0]!;
  open.players = Array.from({ length: boards * 2 }, (_, i) => ({
    id: i + 1,
    name: `Hall player ${String(i + 1).padStart(4, '0')}`,
    federation: 'RSA',
    registered: '2009-06-20',
    fideRating: Math.max(0, 2500 - i),
    nationalRating: Math.max(0, 2500 - i),
  }));
  delete open.teams;
  delete open.prizes;
  event.sections = [open];
  event.id = id;
  event.name = `Hall of ${boards} boards (generated from the South African Open 2009)`;
  delete event.prizes;
  return JSON.stringify(event, null, 2);
}

const SURNAMES = [
  'Van der Westhuizen',
  'Mabusela',
  'Kasimdzhanov',
  'Ramathuba',
  'Du Plessis',
  'Nieuwoudt',
  'Abdelnabbi',
  'Solomons',
  'Steenkamp-Oosthuizen',
  'Mthembu',
  'Gwaze',
  'Dlamini',
  'Botha',
  'Kobese',
  'Sihlongonyane',
  'Wilson',
];
const GIVEN = ['Johannes Petrus', 'Watu', 'Rustam', 'Thabo', 'Henry', 'Charlize', 'Amon', 'Nompumelelo', 'Kenny', 'Daniel', 'Lindiwe', 'Andrew'];

/** "Surname, Given names" as FIDE lists players, 7 to 40 characters; unique by the number after it. */
const playerName = (i: number): string => `${SURNAMES[i % SURNAMES.length]!}, ${GIVEN[Math.floor(i / SURNAMES.length) % GIVEN.length]!} ${i + 1}`;

/**
 * The hall of an open at scale: the South African Open 2009's two sections (the Open and the B
 * section, each on its own hall boards, the B's after the Open's) with `open` and `b` boards of
 * players named as FIDE lists them (long names, as a real field has). The page tests, the page
 * bench and the docs' screenshots use it.
 */
export function sectionsHallEvent(open: number, b: number, id = 'hall-sections'): string {
  const event = JSON.parse(presetJson('sa-open-2009')) as {
    id: string;
    name: string;
    sections: { id: string; players: unknown[]; teams?: unknown; prizes?: unknown; entry?: unknown }[];
    prizes?: unknown;
  };
  const [openSection, bSection] = event.sections as [(typeof event.sections)[number], (typeof event.sections)[number]];
  openSection.players = Array.from({ length: open * 2 }, (_, i) => ({
    id: i + 1,
    name: playerName(i),
    federation: 'RSA',
    registered: '2009-06-20',
    fideRating: Math.max(1000, 2500 - i),
    nationalRating: Math.max(1000, 2500 - i),
  }));
  bSection.players = Array.from({ length: b * 2 }, (_, i) => ({
    id: i + 1,
    name: playerName(i + 7),
    federation: 'RSA',
    nationalRating: Math.max(800, 1490 - i),
    birthDate: `${1993 + (i % 6)}-03-01`,
  }));
  for (const s of event.sections) {
    delete s.teams;
    delete s.prizes;
  }
  event.id = id;
  event.name = `Hall of ${open + b} boards (the South African Open 2009's two sections)`;
  delete event.prizes;
  return JSON.stringify(event, null, 2);
}
