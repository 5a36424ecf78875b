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
