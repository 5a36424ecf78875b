// Roles x commands (staff.ts's PERMISSIONS): every command the schemas know, and the TRF import, has
// a row; every role's decision on every command is walked through refusalFor, on a board of a sector
// arbiter's sector and on one outside it; what the table does not know (a new command, a role it has
// no column for) is refused as `forbidden`.
import { describe, expect, it } from 'vitest';
import {
  arbiterCommandSchema,
  consoleCommandSchema,
  PERMISSIONS,
  refusalFor,
  staffCommandSchema,
  tournamentCommandSchema,
  type ConsoleCommand,
  type StaffRole,
} from '../../arbiter-console/internal.ts';

const typesOf = (schema: { readonly options: readonly { readonly shape: { readonly type: { readonly value: string } } }[] }): string[] =>
  schema.options.map((o) => o.shape.type.value);

// Today's decisions, written out apart from the table: on a board (a sector arbiter on his own),
// round-wide (chief and deputies), the chief's alone.
const ON_A_BOARD = [
  'pause',
  'resume',
  'addTime',
  'setTime',
  'setMoveCounter',
  'penalty',
  'forfeit',
  'result',
  'arrive',
  'setPosition',
  'drawOffer',
  'drawAnswer',
  'flagClaim',
  'quickplayClaim',
  'quickplayDecision',
  'enterMissedMoves',
  'dismiss',
  'enterResult',
  'confirmResult',
  'resolveResultConflict',
];
const CHIEF_AND_DEPUTIES = [
  'startAll',
  'arriveAll',
  'pauseAll',
  'resumeAll',
  'confirmRound',
  'playoffResult',
  'recordIncident',
  'importTrf',
  'lodgeAppeal',
  'dismissKind',
];
const CHIEF_ONLY = [
  'pairNextRound',
  'swapColours',
  'exchangeOpponents',
  'discardDraft',
  'publishRound',
  'startPlayoff',
  'decidePlayoff',
  'setPlayoffFormat',
  'requestBye',
  'withdrawPlayer',
  'renamePlayer',
  'recordNoShow',
  'assignRating',
  'decideAppeal',
  'waiveFine',
  'takeOverHost',
  'defineSector',
  'removeSector',
  'issueCredential',
  'revokeCredential',
  'listCredentials',
];

type Expected = 'granted' | 'own-sector' | 'forbidden';
const expected = (role: StaffRole, type: string): Expected => {
  if (role === 'chief') return 'granted';
  if (CHIEF_ONLY.includes(type)) return 'forbidden';
  if (role === 'deputy') return 'granted';
  return ON_A_BOARD.includes(type) ? 'own-sector' : 'forbidden';
};

const ROLES: readonly StaffRole[] = ['chief', 'deputy', 'sector'];
const who = (role: StaffRole) => ({ name: `IA ${role}`, role, ...(role === 'sector' ? { sector: 'N' } : {}) });
// Every command as refusalFor sees it: its type, and the hall board it acts on.
const scopeOn = (board: string) => ({ boardOf: () => board, members: (sector: string) => (sector === 'N' ? new Set(['1', '2']) : undefined) });
const commandOf = (type: string) => ({ type }) as unknown as ConsoleCommand;

describe('the permission table', () => {
  const schemaTypes = typesOf(consoleCommandSchema);

  it('has a row for every command of the schemas and the TRF import, and no other', () => {
    expect(new Set(schemaTypes)).toEqual(new Set([...typesOf(arbiterCommandSchema), ...typesOf(tournamentCommandSchema), ...typesOf(staffCommandSchema)]));
    expect(Object.keys(PERMISSIONS).sort()).toEqual([...schemaTypes, 'importTrf'].sort());
    expect([...ON_A_BOARD, ...CHIEF_AND_DEPUTIES, ...CHIEF_ONLY].sort()).toEqual([...schemaTypes, 'importTrf'].sort());
  });

  const walk = [...schemaTypes, 'importTrf'].flatMap((type) => ROLES.map((role) => [role, type, expected(role, type)] as const));
  it.each(walk)('%s gives %s: %s', (role, type, decision) => {
    const inSector = refusalFor(who(role), commandOf(type), scopeOn('1'));
    const outside = refusalFor(who(role), commandOf(type), scopeOn('7'));
    const row = PERMISSIONS[type as keyof typeof PERMISSIONS];
    switch (decision) {
      case 'granted':
        expect(row[role]).toBe('anywhere');
        expect(inSector).toBeUndefined();
        expect(outside).toBeUndefined();
        break;
      case 'own-sector':
        expect(row[role]).toBe('own-sector');
        expect(inSector).toBeUndefined();
        expect(outside).toMatchObject({ ok: false, code: 'outside-sector', reason: `board 7 is not in your sector N` });
        break;
      case 'forbidden':
        expect(row[role]).toBe('never');
        expect(inSector).toMatchObject({ ok: false, code: 'forbidden' });
        expect(outside).toMatchObject({ ok: false, code: 'forbidden' });
        break;
    }
  });

  it('refuses a command it has no row for, whoever gives it (default deny)', () => {
    for (const type of ['launchFireworks', 'toString', '__proto__', 'constructor']) {
      for (const role of ROLES) expect(refusalFor(who(role), commandOf(type), scopeOn('1')), `${role} ${type}`).toMatchObject({ ok: false, code: 'forbidden' });
    }
  });

  it('refuses every command to a role it has no column for', () => {
    const visitor = { name: 'Visitor', role: 'visitor' as StaffRole };
    for (const type of [...schemaTypes, 'importTrf'])
      expect(refusalFor(visitor, commandOf(type), scopeOn('1')), type).toMatchObject({ ok: false, code: 'forbidden' });
    expect(refusalFor({ name: 'Proto', role: 'toString' as StaffRole }, commandOf('pause'), scopeOn('1'))).toMatchObject({ ok: false, code: 'forbidden' });
  });

  it('refuses a sector arbiter whose sector is not defined, and a command that names no board of his sector', () => {
    expect(refusalFor({ name: 'FA S', role: 'sector', sector: 'S' }, commandOf('pause'), scopeOn('1'))).toMatchObject({ ok: false, code: 'sector-undefined' });
    expect(refusalFor(who('sector'), commandOf('dismiss'), { ...scopeOn('1'), boardOf: () => undefined })).toMatchObject({ ok: false, code: 'outside-sector' });
  });
});
