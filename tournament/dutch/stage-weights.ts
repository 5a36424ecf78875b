// One stage's quality weights, shortened to the bits its pairs can set. The score-flag fields of
// an edge weight (weights.ts) hold one sub-field per score of the whole field, but a pair sets
// only the sub-fields of its own two players' scores, so in a stage every sub-field of a score
// no stage player has is zero in every edge. Taking those bits out is a linear map of the field
// values that keeps every field's own width, so no sum carries where it did not carry before and
// the order of all matchings' totals, hence every optimum, is unchanged. The generation order's
// low bits (and the zero bits just above them, which a large sum of negative ordering terms may
// borrow from) are kept as they are. The bracket procedure's small adjustments (a few units in
// the low bits, added to or subtracted from a base weight) pass through unchanged.
import { completionShift, scoreFieldOffsets, type WeightLayout } from './weights.ts';

export class StageWeights {
  /** Kept bit runs [from, length], lowest first. */
  private readonly runs: [number, number][] = [];
  private readonly droppedMask: bigint;
  private readonly orderBits: bigint;
  private readonly cache = new Map<bigint, bigint>();

  /** Null when the layout leaves too little room to tell a base weight from its adjustments. */
  static for(layout: WeightLayout, stageScores: ReadonlySet<number>): StageWeights | null {
    return layout.groupBits < 4 ? null : new StageWeights(layout, stageScores);
  }

  private constructor(layout: WeightLayout, stageScores: ReadonlySet<number>) {
    const total = Number(completionShift(layout));
    const keep = new Uint8Array(total).fill(1);
    const shifts = [...layout.scoreShift].sort((a, b) => a[1] - b[1]);
    const lowest = Math.min(...[...stageScores].map((score) => layout.scoreShift.get(score) ?? 0));
    scoreFieldOffsets(layout).forEach((offset, field) => {
      shifts.forEach(([score, shift], i) => {
        // Below the stage's lowest score, the lowest field keeps its bits: room for the ordering sums.
        if (stageScores.has(score) || (field === 0 && shift < lowest)) return;
        const end = i + 1 < shifts.length ? shifts[i + 1]![1] : layout.scoreBits;
        for (let bit = offset + shift; bit < offset + end; bit += 1) keep[bit] = 0;
      });
    });
    let dropped = 0n;
    for (let bit = 0; bit < total; ) {
      let end = bit;
      while (end < total && keep[end] === keep[bit]) end += 1;
      if (keep[bit]) this.runs.push([bit, end - bit]);
      else dropped |= ((1n << BigInt(end - bit)) - 1n) << BigInt(bit);
      bit = end;
    }
    this.droppedMask = dropped;
    this.orderBits = BigInt(3 * layout.groupBits + 1);
  }

  /**
   * The shortened weight of a quality weight (the completion field already taken off), or null if
   * it has bits in a removed sub-field (not expected: the caller then uses the exact weights).
   */
  shorten(weight: bigint): bigint | null {
    // weight = base + adjustment, the base a multiple of 2^orderBits, |adjustment| < 2^(orderBits - 1).
    const base = ((weight + (1n << (this.orderBits - 1n))) >> this.orderBits) << this.orderBits;
    const adjustment = weight - base;
    let short = this.cache.get(base);
    if (short === undefined) {
      if ((base & this.droppedMask) !== 0n) return null;
      short = 0n;
      let at = 0n;
      for (const [from, length] of this.runs) {
        short |= ((base >> BigInt(from)) & ((1n << BigInt(length)) - 1n)) << at;
        at += BigInt(length);
      }
      this.cache.set(base, short);
    }
    return short + adjustment;
  }
}
