// The registration step of the desk: the arbiter's TRF import into the section (a registration list
// before round 1, and/or rounds played elsewhere), checked against the section as the desk knows it.
// The file is read and planned by tournament-import.ts; the desk journals the record this returns.
import { createHash } from 'node:crypto';
import { roundBoards } from '../../tournament/index.ts';
import type { CommandBy } from '../hall/index.ts';
import { refusal, type Refusal } from '../contract/index.ts';
import type { TournamentRecord, TrfImportPreview } from '../contract/index.ts';
import { signature, signed, type DeskFace, type DeskState } from './desk-state.ts';
import { planTrfImport } from './tournament-import.ts';

export interface TrfImportRequest {
  readonly trf: string;
  readonly from: string;
  readonly preview: boolean;
}

/**
 * What a TRF import would change (`preview`) and, unless only previewed, the signed record to journal.
 * Refused, changing nothing, when the file is bad or does not fit (a player not in the section), or
 * when this console has paired a round of the section already or imported rounds before.
 */
export function trfImport(
  desk: DeskFace,
  state: DeskState,
  request: TrfImportRequest,
  arbiter: CommandBy,
): Refusal | { readonly ok: true; readonly preview: TrfImportPreview; readonly record?: TournamentRecord } {
  const where = `section '${desk.section.id}'`;
  if (state.draft)
    return refusal(
      'import-too-late',
      `${where} has a draft of round ${state.draft.round}: a TRF import comes before the first round is paired here (discard the draft first)`,
    );
  const paired = Math.max(desk.liveRound, ...state.published.keys());
  if (paired > 0)
    return refusal(
      'import-too-late',
      `${where}: round ${paired} is paired in this console already: a TRF import comes before its first round here; correct results on the Pairings page`,
    );
  const earlier = state.imported.find((i) => (i.rounds ?? 0) > 0);
  if (earlier)
    return refusal(
      'import-too-late',
      `${where}: rounds 1–${earlier.rounds} were imported already (${earlier.from}, by ${earlier.by}): their results are corrected on the Pairings page, never by another import`,
    );
  const digest = createHash('sha256').update(request.trf).digest('hex');
  const { by, credential } = signature(arbiter);
  const plan = planTrfImport(request.trf, desk.section, { from: request.from, digest, by, totalRounds: desk.totalRounds });
  if (!plan.ok) return plan;
  const record = plan.record;
  const rounds = record.rounds ?? 0;
  const byeAsked = state.byes.find((b) => b.round <= rounds);
  if (byeAsked) return refusal('trf-mismatch', `${where}: a bye in round ${byeAsked.round} was asked for here, the file has that round played`);
  if (desk.section.format.kind === 'round-robin') {
    for (let round = 1; round <= rounds; round += 1) {
      const table = roundBoards(desk.event, desk.section.id, round).boards;
      const games = record.games.filter((g) => g.round === round);
      const off = table.find((b) => !games.some((g) => g.white === b.white.id && g.black === b.black.id));
      if (off || games.length !== table.length) {
        return refusal(
          'trf-mismatch',
          `${request.from}: round ${round} is not the Berger table's${off ? ` (it has ${off.white.name} – ${off.black.name}, White first)` : ''}: the console goes on with the table, so the rounds played must follow it`,
        );
      }
    }
  }
  if (request.preview) return { ok: true, preview: plan.preview };
  if (record.games.length === 0 && record.byes.length === 0 && !record.players)
    return refusal('nothing-to-do', `${request.from}: nothing to import: every player of the file is registered as it says, and it has no results`);
  return { ok: true, preview: plan.preview, record: signed(record, credential) };
}
