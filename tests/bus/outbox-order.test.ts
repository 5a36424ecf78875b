// The outbox's order, without a server: a bus whose every publish waits for the test to answer it. One
// message is in flight at a time, and one that went unanswered is sent again exactly as it was before
// anything journaled after it: so no later entry can be stored before an earlier one (with many in
// flight, one lost while the next got through was stored after it).
import { describe, expect, it } from 'vitest';
import { Outbox, type BusConnection } from '../../bus/index.ts';
import { until } from '../support/wait.ts';
import { MemoryJournal } from './memory-journal.ts';

interface Sent {
  readonly id: string;
  readonly data: string;
  readonly lastSubjectSequence: number | undefined;
}

/** A bus on which each publish is answered by the test: `answer(i, seq)` stores message i, `lose(i)` lets it time out. */
function heldBus(): { bus: BusConnection; sent: Sent[]; answer(i: number, seq: number): void; lose(i: number): void } {
  const sent: Sent[] = [];
  const settle: { resolve: (seq: number) => void; reject: (err: Error) => void }[] = [];
  const bus = {
    connected: () => true,
    onLink: () => () => {},
    js: {
      publish: (_subject: string, data: Uint8Array, opts: { msgID: string; expect?: { lastSubjectSequence?: number } }) => {
        sent.push({ id: opts.msgID, data: new TextDecoder().decode(data), lastSubjectSequence: opts.expect?.lastSubjectSequence });
        return new Promise((resolve, reject) => settle.push({ resolve: (seq) => resolve({ seq, duplicate: false }), reject }));
      },
    },
    jsm: { streams: { getMessage: () => Promise.resolve(null) } },
  } as unknown as BusConnection;
  return { bus, sent, answer: (i, seq) => settle[i]!.resolve(seq), lose: (i) => settle[i]!.reject(new Error('timeout')) };
}

describe('outbox order', () => {
  it('sends one message at a time, every entry waiting in it; an unanswered one again as it was, before anything after it', async () => {
    const { bus, sent, answer, lose } = heldBus();
    const journal = new MemoryJournal('h1');
    for (let i = 1; i <= 3; i++) journal.append({ n: i });
    const outbox = new Outbox(bus, 'zeitnot.e.journal.host.h1', journal, { ownStream: 'ZEITNOT_e' });
    outbox.notify();
    await until(() => sent.length === 1, 'the first message');
    // The subject had nothing (the stream's end read at start): the first message says so.
    expect(sent[0]).toMatchObject({ id: 'h1:1-3', lastSubjectSequence: 0 });
    expect((JSON.parse(sent[0]!.data) as { sourceSeq: number }[]).map((e) => e.sourceSeq)).toEqual([1, 2, 3]);
    // Entries journaled while it is unanswered wait.
    for (let i = 4; i <= 5; i++) journal.append({ n: i });
    outbox.notify();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toHaveLength(1);
    // Lost (no answer): the same message again, not one with 4 and 5.
    lose(0);
    await until(() => sent.length === 2, 'the message again');
    expect(sent[1]).toEqual(sent[0]);
    expect(outbox.state.published).toBe(0);
    answer(1, 7);
    await until(() => sent.length === 3, 'the next message');
    expect(sent[2]).toMatchObject({ id: 'h1:4-5', lastSubjectSequence: 7 });
    answer(2, 9);
    await outbox.whenPublished(5);
    expect(outbox.state).toEqual({ journaled: 5, published: 5, backlog: 0 });
    outbox.stop();
  });
});
