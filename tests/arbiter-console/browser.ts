// Chromium for the browser tests and the README screenshots (Debian's /usr/bin/chromium, headless),
// and the page tests' common frame: one console in a temporary directory and one Chromium per file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startConsole, type ConsoleOptions, type RunningConsole } from '../../arbiter-console/index.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface ConsoleInChromium {
  readonly run: RunningConsole;
  readonly browser: Browser;
}

/**
 * Starts a console (on port 0, in a temporary directory named after `name`) and a Chromium before
 * the file's tests, `ready` run on the console first; stops both and removes the directory after them.
 * Call it at the top level of a test file.
 */
export function consoleInChromium(
  name: string,
  options: () => Omit<ConsoleOptions, 'dataDir' | 'port'>,
  ready?: (run: RunningConsole) => void,
): ConsoleInChromium {
  let run: RunningConsole | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `zeitnot-${name}-`));
    run = await startConsole({ dataDir, port: 0, ...options() });
    ready?.(run);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await run?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get run() {
      if (!run) throw new Error('the console is started in beforeAll');
      return run;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is started in beforeAll');
      return browser;
    },
  };
}
