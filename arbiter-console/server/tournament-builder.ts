// Builds the tournament pages' messages off the clocks' event loop. A result in a 2,000-player
// section rebuilds its crosstable, tie-breaks and prizes (200-900 ms) and diffs the view (20-300 ms):
// done inline, every press queued behind it. The desk hands over its ViewParts (plain data, a few
// ms); a worker thread assembles the views, diffs them against the last it made and serializes
// both messages, so the event loop only sends strings. One build is in flight at a time (Broadcast).
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ZeitnotEvent } from '../../tournament/index.ts';
import type { ServerMessage } from '../contract/index.ts';
import type { TournamentView, ViewParts } from '../contract/index.ts';
import { assembleViews, eventViews, type RoleViews } from '../desk/index.ts';
import { diffView } from '../contract/index.ts';
import { packageRoot } from './built-page.ts';

export type ViewRole = 'arbiter' | 'spectator';

export interface ViewRequest {
  /** The hall's version the parts were taken at (the messages' version). */
  readonly version: number;
  /** Every section's parts, in the event's order (the first is the view's own). */
  readonly sections: readonly ViewParts[];
}

export interface RoleMessages {
  readonly version: number;
  /** The whole view: a `tournament` message. */
  readonly text: string;
  /** The version the patch starts from (the previous build's); absent on the first build. */
  readonly from?: number;
  /** A `tournamentDelta` from `from`; absent when nothing changed for this role. */
  readonly patch?: string;
}

export type BuiltViews = Readonly<Record<ViewRole, RoleMessages>>;

export interface TournamentBuilder {
  build(request: ViewRequest): Promise<BuiltViews>;
  stop(): Promise<void>;
}

export interface BuilderSetup {
  readonly event: ZeitnotEvent;
  readonly sections: readonly string[];
}

/** Makes the messages of each build, diffing against the views of the build before (its own copies). */
export class ViewMaker {
  #last: { version: number; views: RoleViews } | undefined;

  constructor(readonly setup: BuilderSetup) {}

  make(request: ViewRequest): BuiltViews {
    const views = eventViews(request.sections.map((parts, i) => assembleViews(this.setup.event, this.setup.sections[i]!, parts)));
    const before = this.#last;
    const out = {} as Record<ViewRole, RoleMessages>;
    for (const role of ['spectator', 'arbiter'] as const) {
      const view: TournamentView = views[role];
      // Without a draft, now and before, the arbiters see the spectators' view: diffed and serialized once.
      if (role === 'arbiter' && view === views.spectator && (!before || before.views.arbiter === before.views.spectator)) {
        out.arbiter = out.spectator;
        continue;
      }
      const text = JSON.stringify({ type: 'tournament', version: request.version, view } satisfies ServerMessage);
      const patch = before ? diffView(before.views[role], view) : undefined;
      out[role] = {
        version: request.version,
        text,
        ...(before ? { from: before.version } : {}),
        ...(before && patch && patch.length > 0
          ? { patch: JSON.stringify({ type: 'tournamentDelta', from: before.version, version: request.version, patch } satisfies ServerMessage) }
          : {}),
      };
    }
    this.#last = { version: request.version, views };
    return out;
  }
}

/** On the caller's thread (tests, and the fallback when the worker cannot run): the same messages, blocking. */
export function inlineBuilder(setup: BuilderSetup): TournamentBuilder {
  const maker = new ViewMaker(setup);
  return {
    // A copy: the desk may reuse (and later change) parts of what it handed over.
    build: (request) => Promise.resolve().then(() => maker.make(structuredClone(request))),
    stop: () => Promise.resolve(),
  };
}

type WorkerAnswer =
  { readonly id: number; readonly ok: true; readonly built: BuiltViews } | { readonly id: number; readonly ok: false; readonly reason: string };

/**
 * In a worker thread: dist/cli/tournament-worker.js in the built package; from the TypeScript sources
 * (tests, benchmarks) through tsx. Started on the first build. A worker that dies is replaced by the
 * inline builder, so the pages still follow (only the clocks then wait for them).
 */
export function workerBuilder(setup: BuilderSetup, onTrouble: (reason: string) => void = () => {}): TournamentBuilder {
  let worker: Worker | undefined;
  let fallback: TournamentBuilder | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (b: BuiltViews) => void; reject: (e: Error) => void }>();
  const fail = (reason: string): void => {
    onTrouble(`the tournament view worker stopped (${reason}): the views are built on the main thread from now on`);
    fallback ??= inlineBuilder(setup);
    worker = undefined;
    for (const w of waiting.values()) w.reject(new Error(reason));
    waiting.clear();
  };
  const start = (): Worker => {
    const w = spawn(setup);
    w.unref();
    w.on('message', (answer: WorkerAnswer) => {
      const pending = waiting.get(answer.id);
      waiting.delete(answer.id);
      if (answer.ok) pending?.resolve(answer.built);
      else pending?.reject(new Error(answer.reason));
    });
    w.on('error', (error) => fail(String(error)));
    w.on('exit', (code) => worker === w && fail(`exit code ${code}`));
    return w;
  };
  return {
    build(request) {
      if (fallback) return fallback.build(request);
      worker ??= start();
      const id = ++nextId;
      const answer = new Promise<BuiltViews>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, request });
      return answer;
    },
    async stop() {
      const w = worker;
      worker = undefined;
      if (w) await w.terminate();
    },
  };
}

function spawn(setup: BuilderSetup): Worker {
  // From the sources (tests, benchmarks) a bootstrap registers tsx in the worker first.
  const file = import.meta.url.endsWith('.ts')
    ? new URL('./tournament-worker-source.mjs', import.meta.url)
    : join(packageRoot(), 'dist', 'cli', 'tournament-worker.js');
  return new Worker(file, { workerData: setup });
}
