// One stage's quality weights, shortened to the bits its pairs can set. The score-flag fields of
// an edge weight (weights.ts) hold one sub-field per score of the whole field, but a pair sets
// only the sub-fields of its own two players' scores, so in a stage every sub-field of a score
// no stage player has is zero in every edge. Taking those bits out is a linear map of the field
// values that keeps every field's own width, so no sum carries where it did not carry before and
// the order of all matchings' totals, hence every optimum, is unchanged. The generation order's
// low bits (and the zero bits just above them, which a large sum of negative ordering terms may
// borrow from) are kept as they are. The bracket procedure's small adjustments (a few units in
// the low bits, added to or subtracted from a base weight) are added after shortening, unchanged.
//
// C9's room (the bye assignee's unplayed games) is zero in every edge where C9 is not in play
// (ByeContext.singleDownfloaterIsBye false): it goes then, by the same argument.
//
// A stage's graph on the bracket alone (sparse-matcher.ts), like that of a stage with no next
// score group, holds only pairs of two bracket players, which set no bit of C8 (the next
// bracket's pairs and scores), nor any sub-field of the next score group's score: those go too,
// by the same argument (each is zero in every edge of that graph), and the graph's numbers get a
// second, shorter weight (bracketShort). A bracket of one score (no moved-down players) loses its
// score fields too: with both players on that score, C7 copies C6 (the pair count) and C18-C21
// copy C14-C17 (the floats) in every edge, hence in every matching's total, so two matchings
// never first differ in a copy and the order of all totals stands without them. At 2,000
// players round 3 that takes the largest bracket's weights from 264 to 132 bits, 7 limbs to 4
// in the matcher's arithmetic.
//
// A stage's pairs share a few base weights (one per kind of pair) and a few thousand adjustments,
// so StagePairWeights numbers each distinct weight a pair is set to and computes its quality and
// shortened weight once; a pair keeps only that number.
import { completionShift, scoreFieldOffsets, type WeightLayout } from './weights.ts';

/** A bit left out because its field copies another (not checked to be zero, as a dropped one is). */
const COPY = 2;

export class StageWeights {
  /** Kept bit runs [from, length], lowest first. */
  private readonly runs: [number, number][] = [];
  private readonly droppedMask: bigint;

  /**
   * Null for a layout of small score groups (groupBits < 4, at most 7 players): there the sums of
   * the procedure's adjustments may reach past the ordering room, which the kept bits were not
   * argued for, and the stage's graphs are small; they keep their quality weights whole.
   */
  static for(layout: WeightLayout, stageScores: ReadonlySet<number>, c9InPlay = true): StageWeights | null {
    return layout.groupBits < 4 ? null : new StageWeights(layout, stageScores, true, c9InPlay);
  }

  /** The same for the pairs of a bracket alone (`bracketScores`: its players'), without C8 (and C9 unless in play). */
  static forBracket(layout: WeightLayout, bracketScores: ReadonlySet<number>, c9InPlay: boolean): StageWeights | null {
    return layout.groupBits < 4 ? null : new StageWeights(layout, bracketScores, false, c9InPlay);
  }

  private constructor(layout: WeightLayout, stageScores: ReadonlySet<number>, nextBracket: boolean, c9InPlay: boolean) {
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
    const offsets = scoreFieldOffsets(layout);
    const c8 = offsets[offsets.length - 2]!;
    // C9's room (2 groupBits, just above the colours) is zero in every edge unless C9 is in play.
    if (!c9InPlay) for (let bit = c8 - 2 * layout.groupBits; bit < c8; bit += 1) keep[bit] = 0;
    if (!nextBracket) {
      // C8's scores and its pair count.
      for (let bit = c8; bit < c8 + layout.scoreBits + layout.groupBits; bit += 1) keep[bit] = 0;
      if (stageScores.size === 1) {
        // The one score's sub-field of C18-C21 and C7: copies of C14-C17 and C6.
        const [score] = stageScores;
        const i = shifts.findIndex(([s]) => s === score);
        const end = i + 1 < shifts.length ? shifts[i + 1]![1] : layout.scoreBits;
        offsets.forEach((offset, field) => {
          if (field === offsets.length - 2) return;
          for (let bit = offset + shifts[i]![1]; bit < offset + end; bit += 1) keep[bit] = COPY;
        });
      }
    }
    let dropped = 0n;
    for (let bit = 0; bit < total;) {
      let end = bit;
      while (end < total && keep[end] === keep[bit]) end += 1;
      if (keep[bit] === 1) this.runs.push([bit, end - bit]);
      else if (keep[bit] === 0) dropped |= ((1n << BigInt(end - bit)) - 1n) << BigInt(bit);
      bit = end;
    }
    this.droppedMask = dropped;
  }

  /**
   * The shortened weight of a quality weight's base (the completion field taken off, no
   * adjustment: a positive multiple of the generation order's unit), or null if it has bits in a
   * removed sub-field (not expected: the caller then uses the exact weights).
   */
  shorten(base: bigint): bigint | null {
    if ((base & this.droppedMask) !== 0n) return null;
    let short = 0n;
    let at = 0n;
    for (const [from, length] of this.runs) {
      short |= ((base >> BigInt(from)) & ((1n << BigInt(length)) - 1n)) << at;
      at += BigInt(length);
    }
    return short;
  }
}

/**
 * The weights a stage's pairs are set to, by number. A pair set to the procedure's weight number
 * `id` (edgeWeights) plus an adjustment, with c of its two players not allowed the bye, weighs
 * weights[id] - completionFields[c] + adjustment in quality: each distinct (id, c) has its
 * completion field taken off once, each distinct result (a quality base) is shortened once, and
 * each distinct (base, adjustment) is one number, its shortened weight computed once (number 0:
 * no edge). So one number is one weight, and one weight one number.
 */
export class StagePairWeights {
  /** By number: the shortened weight (a BigInt shared by every pair of that number). */
  readonly short: bigint[] = [0n];
  /** By number: the weight on the bracket alone, computed when first asked for (bracketShort). */
  private readonly bracket: (bigint | null | undefined)[] = [0n];
  /** By number: its quality base (an index into baseQuality) and its adjustment. */
  private readonly baseOf: number[] = [0];
  private readonly adjustmentOf: number[] = [0];
  /** By quality base: the quality weight, its shortened weight, and its numbers by adjustment. */
  private readonly baseQuality: bigint[] = [0n];
  private readonly baseShort: bigint[] = [0n];
  /** By quality base: its weight on the bracket alone, null if it sets a bit that graph drops. */
  private readonly baseBracketShort: (bigint | null | undefined)[] = [0n];
  private readonly byAdjustment: Map<number, number>[] = [new Map()];
  /** The quality base of weight number id with c players not allowed the bye, at 3 id + c. */
  private readonly baseById: number[] = [];
  /**
   * The quality bases by value: kinds of pair that differ in a field the stage's weights do not
   * read weigh the same, and one base (so one number per adjustment) serves them all.
   */
  private readonly baseByQuality = new Map<bigint, number>();

  constructor(
    private readonly weights: readonly bigint[],
    private readonly completionFields: readonly bigint[],
    private readonly shortened: StageWeights | null,
    private readonly bracketShortened: StageWeights | null = shortened,
  ) {}

  /**
   * The weight of a number on a graph of the bracket alone (StageWeights.forBracket), or null
   * for a pair that sets a bit that graph drops (one with an end outside the bracket).
   */
  bracketShort(number: number): bigint | null {
    let short = this.bracket[number];
    if (short === undefined) {
      const base = this.baseOf[number]!;
      let baseShort = this.baseBracketShort[base];
      if (baseShort === undefined) {
        const quality = this.baseQuality[base]!;
        baseShort = this.baseBracketShort[base] = this.bracketShortened ? this.bracketShortened.shorten(quality) : quality;
      }
      short = this.bracket[number] = baseShort === null ? null : baseShort + BigInt(this.adjustmentOf[number]!);
    }
    return short;
  }

  /**
   * The number of weights[id] + adjustment, less completion field c; -1 when it cannot be set
   * on the stage's graph (no quality weight left, or bits outside the stage: not expected).
   */
  numberOf(id: number, c: number, adjustment: number): number {
    if (id === 0) return 0;
    let base = this.baseById[3 * id + c];
    if (base === undefined) {
      base = this.addBase(this.weights[id]! - this.completionFields[c]!);
      if (base < 0) return -1;
      this.baseById[3 * id + c] = base;
    }
    return this.numberAt(base, adjustment);
  }

  /** The number, in this stage, of a pair's number in the stage before (`from`). */
  carried(from: StagePairWeights, number: number): number {
    if (number === 0) return 0;
    const base = this.addBase(from.baseQuality[from.baseOf[number]!]!);
    return base < 0 ? -1 : this.numberAt(base, from.adjustmentOf[number]!);
  }

  /** The quality weight (completion field taken off, adjustment added) of a number. */
  quality(number: number): bigint {
    return number === 0 ? 0n : this.baseQuality[this.baseOf[number]!]! + BigInt(this.adjustmentOf[number]!);
  }

  private addBase(quality: bigint): number {
    const known = this.baseByQuality.get(quality);
    if (known !== undefined) return known;
    if (quality <= 0n) return -1;
    const short = this.shortened ? this.shortened.shorten(quality) : quality;
    if (short === null) return -1;
    this.baseQuality.push(quality);
    this.baseShort.push(short);
    const base = this.byAdjustment.push(new Map()) - 1;
    this.baseByQuality.set(quality, base);
    return base;
  }

  private numberAt(base: number, adjustment: number): number {
    const numbers = this.byAdjustment[base]!;
    let number = numbers.get(adjustment);
    if (number === undefined) {
      number = this.short.push(this.baseShort[base]! + BigInt(adjustment)) - 1;
      this.baseOf.push(base);
      this.adjustmentOf.push(adjustment);
      numbers.set(adjustment, number);
    }
    return number;
  }
}
