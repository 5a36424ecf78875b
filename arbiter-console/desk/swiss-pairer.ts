// The Dutch engine off the clocks' event loop. Pairing a 2,000-player Swiss takes 0.5-4 s of CPU:
// done inline, every press and every page in the hall waits for it. The desk hands the engine's
// input (plain data: the event, the section record, the round, the byes) to a worker thread, which
// runs the same pairSwissRound and answers with the draft's games and bye; the clocks go on meanwhile.
// A worker that dies, fails or takes longer than `timeoutMs` is a refusal with its code
// (`pairing-failed`), never a command left unanswered; the next pairing starts a new worker.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { NoValidPairingError, pairSwissRound, type ByeRequest, type Pairing, type SectionRecord, type ZeitnotEvent } from '../../tournament/index.ts';
import { packageRoot } from '../start/index.ts';

/** What the Dutch engine pairs a round from. */
export interface SwissPairingInput {
  readonly event: ZeitnotEvent;
  readonly section: string;
  readonly record: SectionRecord;
  readonly round: number;
  readonly byes: readonly ByeRequest[];
}

/** The engine's pairing of a round: its games in board order and the pairing-allocated bye. */
export interface SwissPairing {
  readonly games: readonly Pairing[];
  readonly bye: number | null;
}

export interface SwissPairer {
  /** The engine's pairing; rejects with a PairingFailure (the worker) or the engine's own error (no valid pairing). */
  pair(input: SwissPairingInput): Promise<SwissPairing>;
  /**
   * The engine made ready ahead of its first pairing (the worker started, its code loaded), so the end of
   * a round does not wait for that nor share the CPU with it; resolves when it is ready, or has failed
   * (the pairing then says how).
   */
  prepare(): Promise<void>;
  stop(): Promise<void>;
}

/** The worker died, failed on its own (not the engine's rule) or took too long: nothing was paired. */
export class PairingFailure extends Error {
  override readonly name = 'PairingFailure';
}

/** The pairing itself, wherever it runs (the worker runs this). */
export function swissPairing(input: SwissPairingInput): SwissPairing {
  const round = pairSwissRound(input.event, input.section, input.record, input.round, input.byes);
  return { games: round.games, bye: round.bye };
}

/** On the caller's thread (tests, `console start`'s first round): the same pairing, blocking. */
export function inlinePairer(): SwissPairer {
  return {
    // A copy, as the worker gets one: the desk may change its state after handing it over.
    pair: (input) => Promise.resolve().then(() => swissPairing(structuredClone(input))),
    prepare: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
}

/** The worker's answer: the pairing, or the error it threw (a NoValidPairingError is the engine's rule). */
export type PairingAnswer =
  | { readonly id: number; readonly ok: true; readonly pairing: SwissPairing }
  | { readonly id: number; readonly ok: false; readonly error: { readonly name: string; readonly message: string } };
/** What the worker says: it has loaded the engine (once, first), or a pairing's answer. */
export type PairingWorkerMessage = { readonly ready: true } | PairingAnswer;

export interface WorkerPairerOptions {
  /** A pairing that takes longer is given up (the worker terminated): default 120 s. */
  readonly timeoutMs?: number;
  /** The worker's file (tests: one that fails); default the package's pairing worker. */
  readonly file?: URL | string;
}

/**
 * In a worker thread: dist/cli/pairing-worker.js in the built package; from the TypeScript sources
 * (tests, benchmarks) through a bootstrap that registers tsx. Started by `prepare` or the first pairing, one
 * pairing at a time (the worker answers in order).
 */
export function workerPairer(options: WorkerPairerOptions = {}): SwissPairer {
  const timeoutMs = options.timeoutMs ?? 120_000;
  let worker: Worker | undefined;
  /** Settles when the running worker has loaded the engine, or has failed. */
  let ready: Promise<void> = Promise.resolve();
  let nextId = 0;
  const waiting = new Map<number, { resolve: (p: SwissPairing) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  /** Every pairing waiting on `w` is refused, and the next one starts a new worker. */
  const fail = (w: Worker, reason: string): void => {
    if (worker !== w) return;
    worker = undefined;
    void w.terminate();
    for (const pending of waiting.values()) {
      clearTimeout(pending.timer);
      pending.reject(new PairingFailure(reason));
    }
    waiting.clear();
  };
  const start = (): Worker => {
    const w = new Worker(options.file ?? workerFile());
    w.unref();
    let loaded: () => void = () => {};
    ready = new Promise<void>((resolve) => (loaded = resolve));
    w.once('exit', () => loaded());
    w.on('message', (answer: PairingWorkerMessage) => {
      if ('ready' in answer) return loaded();
      const pending = waiting.get(answer.id);
      if (!pending) return;
      waiting.delete(answer.id);
      clearTimeout(pending.timer);
      if (answer.ok) pending.resolve(answer.pairing);
      else pending.reject(engineError(answer.error));
    });
    w.on('error', (error) => fail(w, `the pairing worker failed: ${error.message}`));
    w.on('exit', (code) => fail(w, `the pairing worker stopped (exit code ${code})`));
    return w;
  };
  return {
    pair(input) {
      const w = (worker ??= start());
      const id = ++nextId;
      return new Promise<SwissPairing>((resolve, reject) => {
        const timer = setTimeout(() => fail(w, `the pairing took longer than ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
        waiting.set(id, { resolve, reject, timer });
        w.postMessage({ id, input });
      });
    },
    prepare() {
      worker ??= start();
      return ready;
    },
    async stop() {
      const w = worker;
      worker = undefined;
      for (const pending of waiting.values()) {
        clearTimeout(pending.timer);
        pending.reject(new PairingFailure('the console stopped'));
      }
      waiting.clear();
      if (w) await w.terminate();
    },
  };
}

/** The engine's refusal comes back as the error it is (the desk refuses it as the rule); anything else is the worker's failure. */
function engineError(error: { readonly name: string; readonly message: string }): Error {
  if (error.name === 'NoValidPairingError') return new NoValidPairingError(error.message);
  if (error.name === 'RangeError') return new RangeError(error.message);
  return new PairingFailure(`the pairing worker failed: ${error.message}`);
}

function workerFile(): URL | string {
  return import.meta.url.endsWith('.ts') ? new URL('./pairing-worker-source.mjs', import.meta.url) : join(packageRoot(), 'dist', 'cli', 'pairing-worker.js');
}
