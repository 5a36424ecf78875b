// Who is at the keyboard, and a named credential as the chief lists it: the team keeps the
// credentials (team/credentials.ts), the page shows them.
import type { StaffRole } from './staff.ts';

/** Who is at the keyboard: what the journal, the PGN and the sector checks use. */
export interface Arbiter {
  /** 'chief' for the printed token; the credential's id otherwise. */
  readonly id: string;
  readonly name: string;
  readonly role: StaffRole;
  /** A sector arbiter's sector (staff.ts). */
  readonly sector?: string;
}

/** A named credential as the chief lists it (never the secret or its hash). */
export interface CredentialInfo extends Arbiter {
  readonly issuedAt: string;
  readonly issuedBy: string;
  readonly revokedAt?: string;
}
