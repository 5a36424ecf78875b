// A journal in memory for the bus tests: entries appended by the test, read back by an Outbox.
import type { BusEntry, OutboxSource } from '../../bus/index.ts';

export class MemoryJournal implements OutboxSource {
  readonly entries: BusEntry[] = [];
  #published = 0;

  constructor(readonly id: string) {}

  append(record: unknown, place: { section?: string; round?: number } = {}): number {
    const sourceSeq = this.entries.length + 1;
    this.entries.push({ source: this.id, sourceSeq, wallMs: Date.now(), ...place, record });
    return sourceSeq;
  }

  after(sourceSeq: number, limit: number): readonly BusEntry[] {
    return this.entries.slice(sourceSeq, sourceSeq + limit);
  }

  last(): number {
    return this.entries.length;
  }

  published(): number {
    return this.#published;
  }

  markPublished(sourceSeq: number): void {
    this.#published = sourceSeq;
  }

  /** Forgets where publishing stood (a host whose journal lost that note): everything goes out again. */
  forgetPublished(): void {
    this.#published = 0;
  }
}

export const anyRecord = (record: unknown) => ({ ok: true as const, record });
