// A problem in a TRF, where it is: what `trf check` prints and every TRF reader throws.

/** A problem in a TRF file, at its 1-based line and column. */
export class TrfError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`TRF line ${line}:${column}: ${problem}`);
    this.name = 'TrfError';
  }
}
