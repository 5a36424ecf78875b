// The tournament view worker (tournament-builder.ts): assembles, diffs and serializes the views the
// main thread asks for, one request at a time, and answers each with its messages or the reason it failed.
import { parentPort, workerData } from 'node:worker_threads';
import { ViewMaker, type BuilderSetup, type ViewRequest } from './tournament-builder.ts';

const maker = new ViewMaker(workerData as BuilderSetup);
parentPort!.on('message', ({ id, request }: { id: number; request: ViewRequest }) => {
  try {
    parentPort!.postMessage({ id, ok: true, built: maker.make(request) });
  } catch (error) {
    parentPort!.postMessage({ id, ok: false, reason: String(error) });
  }
});
