// The chief arbiter's team in the console: sectors of the hall and named credentials, both journaled
// (`staff` records, the credentials with their hashes) and rebuilt from the journal on a restart. On
// the bus the journal holds every console's staff records, read from the stream (`receive`), so a
// credential issued or revoked on any console of the event holds on this one.
import type { Arbiter, CredentialInfo } from '../contract/index.ts';
import type { CredentialHash } from '../contract/index.ts';
import type { Credentials, StaffRecordPlace } from './credentials.ts';
import type { JournalEntry } from '../journal/index.ts';
import type { PlayingHall } from '../hall/index.ts';
import type { StaffCommand } from '../contract/index.ts';
import { parseBoardRanges, sectorMembers, type HallLayout, type Sector, type SectorView, type StaffChange } from '../contract/index.ts';
import { refusal, type Refusal, type RefusalCode } from '../contract/index.ts';

export type TeamOutcome =
  { readonly ok: true; readonly journalSeq: number; readonly token?: string; readonly credentials?: readonly CredentialInfo[] } | Refusal;

export interface TeamOptions {
  /** The sections a sector may name (the event's); empty when the console runs no event. */
  readonly sections?: () => readonly string[];
  /**
   * The event's hall: every hall board, each section's boards on it (fixed by the event file, so a
   * sector covers the same boards round after round). Default: the boards seated now, no sections.
   */
  readonly layout?: () => HallLayout;
}

export class Team {
  readonly #sectors = new Map<string, Sector>();
  readonly #members = new Map<string, ReadonlySet<string>>();
  readonly #listeners = new Set<(change: StaffChange) => void>();

  constructor(
    readonly hall: PlayingHall,
    readonly credentials: Credentials,
    readonly options: TeamOptions = {},
  ) {
    for (const entry of hall.journal.entries(0, 'staff'))
      if (entry.record.kind === 'staff') this.#apply(entry.record.change, { wallMs: entry.wallMs, by: entry.record.by });
    credentials.journalRehash((by, change) => this.#record(change, by));
  }

  /** Another console's staff record, read from the bus into the journal: applied, and told (a revocation cuts its tablets off here too). */
  receive(entry: Pick<JournalEntry, 'wallMs' | 'record'>): void {
    const record = entry.record;
    if (record.kind !== 'staff') return;
    this.#apply(record.change, { wallMs: entry.wallMs, by: record.by });
    this.#emit(record.change);
  }

  /**
   * Journals the hashes an earlier version kept in DIR/arbiters.json (credentials.ts,
   * `readCredentialsFile`) for the credentials the journal issued without one. A credential the
   * journal never issued was never shown (the file was written first, the issue journaled second),
   * and a hash the journal has already is kept. Returns how many were journaled.
   */
  adoptHashes(hashes: ReadonlyMap<string, CredentialHash>): number {
    let adopted = 0;
    for (const [credential, hash] of hashes) {
      if (!this.credentials.list().some((c) => c.id === credential) || this.credentials.hashOf(credential) !== undefined) continue;
      this.#record({ type: 'credentialHash', credential, hash }, { id: 'chief', name: 'zeitnot (arbiters.json moved into the journal)', role: 'chief' });
      adopted += 1;
    }
    return adopted;
  }

  subscribe(listener: (change: StaffChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  sectors(): SectorView[] {
    return [...this.#sectors.values()].map((s) => ({ ...s, members: [...(this.#members.get(s.id) ?? [])] }));
  }

  /** The hall boards of a sector, or undefined when there is no such sector. */
  members(sector: string): ReadonlySet<string> | undefined {
    return this.#members.get(sector);
  }

  /** Carries out a chief arbiter's command (the caller checked the role), journaled before it applies. */
  async command(command: StaffCommand, by: Arbiter): Promise<TeamOutcome> {
    const refuse = (code: RefusalCode, reason: string): TeamOutcome => refusal(code, reason);
    switch (command.type) {
      case 'defineSector': {
        const parsed = parseBoardRanges(command.boards);
        if (!parsed.ok) return refuse('bad-boards', `boards: ${parsed.reason}`);
        const sections = this.options.sections?.() ?? [];
        if (command.section !== undefined && !sections.includes(command.section)) {
          return refuse('no-section', `no section '${command.section}' in this console${sections.length ? ` (sections: ${sections.join(', ')})` : ''}`);
        }
        const sector: Sector = {
          id: command.sector,
          name: command.name,
          boards: command.boards,
          ...(command.section !== undefined ? { section: command.section } : {}),
        };
        if (sectorMembers(sector, this.#layout()).length === 0) {
          return refuse(
            'bad-boards',
            `boards ${command.boards} cover no board of ${command.section ? `section ${command.section} (its own board numbers)` : 'the hall'}`,
          );
        }
        return { ok: true, journalSeq: this.#record({ type: 'defineSector', sector }, by) };
      }
      case 'removeSector': {
        if (!this.#sectors.has(command.sector)) return refuse('unknown-sector', `no sector '${command.sector}'`);
        const holders = this.credentials.list().filter((c) => c.sector === command.sector && c.revokedAt === undefined);
        if (holders.length > 0)
          return refuse(
            'sector-in-use',
            `sector ${command.sector} still has arbiters (${holders.map((h) => h.name).join(', ')}): revoke their credentials first`,
          );
        return { ok: true, journalSeq: this.#record({ type: 'removeSector', sector: command.sector }, by) };
      }
      case 'issueCredential': {
        if (command.sector !== undefined && !this.#sectors.has(command.sector)) {
          return refuse(
            'unknown-sector',
            `no sector '${command.sector}' (define it first${this.#sectors.size ? `; sectors: ${[...this.#sectors.keys()].join(', ')}` : ''})`,
          );
        }
        const holder = this.credentials.holderOf(command.name);
        if (holder)
          return refuse(
            'name-in-use',
            `the name '${command.name}' is ${holder.role === 'chief' ? "the chief arbiter's" : `credential ${holder.id}'s`} already: each member of the team has a name of his own (revoke that credential first to give the name again)`,
          );
        const { id, token, hash } = this.credentials.newCredential();
        const journalSeq = this.#record(
          { type: 'issueCredential', credential: id, name: command.name, role: command.role, ...(command.sector ? { sector: command.sector } : {}), hash },
          by,
        );
        return { ok: true, journalSeq, token };
      }
      case 'revokeCredential': {
        const known = this.credentials.list().find((c) => c.id === command.credential);
        if (!known)
          return refuse(
            'unknown-credential',
            `no credential '${command.credential}'${command.credential === 'chief' ? ' (the chief token is replaced by deleting its file and restarting)' : ''}`,
          );
        if (known.revokedAt) return refuse('already-revoked', `${known.name}'s credential was revoked at ${known.revokedAt}`);
        return { ok: true, journalSeq: this.#record({ type: 'revokeCredential', credential: known.id, name: known.name }, by) };
      }
      case 'listCredentials':
        return { ok: true, journalSeq: this.hall.version, credentials: this.credentials.list() };
    }
  }

  #record(change: StaffChange, by: Arbiter): number {
    const seq = this.hall.record({ kind: 'staff', at: this.hall.source.now(), by: by.name, credential: by.id, change });
    this.#apply(change, { wallMs: Date.now(), by: by.name });
    this.#emit(change);
    return seq;
  }

  #apply(change: StaffChange, place: StaffRecordPlace): void {
    this.credentials.apply(change, place);
    if (change.type === 'defineSector') {
      this.#sectors.set(change.sector.id, change.sector);
      this.#members.set(change.sector.id, new Set(sectorMembers(change.sector, this.#layout())));
    } else if (change.type === 'removeSector') {
      this.#sectors.delete(change.sector);
      this.#members.delete(change.sector);
    }
  }

  #layout(): HallLayout {
    return this.options.layout?.() ?? { hallBoards: this.hall.boards.keys(), sectionBoards: () => undefined };
  }

  /** A rewritten hash changes nothing anyone sees. */
  #emit(change: StaffChange): void {
    if (change.type === 'credentialHash') return;
    for (const listener of this.#listeners) listener(change);
  }
}
