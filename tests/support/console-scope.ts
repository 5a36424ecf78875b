// What a console test opens (consoles, WebSocket clients, data directories), closed after each test:
// the same afterEach the console tests each wrote for themselves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { startConsole, type ConsoleOptions, type RunningConsole } from '../../arbiter-console/internal.ts';
import { helloClient, sendCommand, type Message, type TestClient } from './ws-client.ts';

export class ConsoleScope {
  readonly #runs = new Set<RunningConsole>();
  readonly clients: TestClient[] = [];
  readonly #dirs: string[] = [];

  constructor() {
    afterEach(() => this.close());
  }

  /** A data directory removed after the test. */
  dataDir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.#dirs.push(dir);
    return dir;
  }

  /** A console stopped after the test (unless the test stopped it with `stop`). */
  async start(options: ConsoleOptions): Promise<RunningConsole> {
    const run = await startConsole(options);
    this.#runs.add(run);
    return run;
  }

  async stop(run: RunningConsole): Promise<void> {
    this.#runs.delete(run);
    await run.stop();
  }

  /** The chief arbiter's page on `run`, signed in with the token the console printed. */
  async chiefOf(run: RunningConsole, token = run.newToken): Promise<TestClient> {
    const chief = await helloClient(run.url, { role: 'arbiter', token, name: 'IA Chief' });
    this.clients.push(chief);
    return chief;
  }

  closeClients(): void {
    for (const c of this.clients.splice(0)) c.ws.close();
  }

  async close(): Promise<void> {
    this.closeClients();
    for (const run of this.#runs) await run.stop();
    this.#runs.clear();
    for (const d of this.#dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/** Sends a command and expects it carried out. */
export async function acked(client: TestClient, command: object): Promise<Message> {
  const answer = await sendCommand(client, command as { type: string });
  expect(answer, JSON.stringify(answer)).toMatchObject({ type: 'ack' });
  return answer;
}
