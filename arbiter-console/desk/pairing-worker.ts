// The pairing worker (swiss-pairer.ts): runs the Dutch engine on what the desk hands over, one round at
// a time, and answers each with the pairing or the error the engine threw (its name and message).
import { parentPort } from 'node:worker_threads';
import { swissPairing, type PairingAnswer, type PairingWorkerMessage, type SwissPairingInput } from './swiss-pairer.ts';

parentPort!.on('message', ({ id, input }: { id: number; input: SwissPairingInput }) => {
  let answer: PairingAnswer;
  try {
    answer = { id, ok: true, pairing: swissPairing(input) };
  } catch (error) {
    answer = { id, ok: false, error: error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) } };
  }
  parentPort!.postMessage(answer);
});
// The engine's code is loaded: a console warming the worker up (`prepare`) waits for this.
parentPort!.postMessage({ ready: true } satisfies PairingWorkerMessage);
