// What commands read from files named on the command line: `--event FILE|PRESET`, and any other
// file an option names (a missing one is a usage error naming the option).
import { existsSync, readFileSync } from 'node:fs';
import { loadEvent, presetEvent, presetNames, type PresetName, type ZeitnotEvent } from '../tournament/index.ts';
import { UsageError } from './command.ts';

/** A preset by name, else an event file (docs/event-file.md). */
export function eventFrom(arg: string): ZeitnotEvent {
  if ((presetNames as string[]).includes(arg)) return presetEvent(arg as PresetName);
  if (!existsSync(arg)) throw new UsageError(`--event '${arg}': no such file and no such preset (presets: ${presetNames.join(', ')})`);
  // Every time control is checked as the clock would run it (tournament's clockEngineCheck).
  return loadEvent(readFileSync(arg, 'utf8'));
}

/** The text of the file an option names. */
export function readInput(option: string, path: string): string {
  if (!existsSync(path)) throw new UsageError(`${option} '${path}': no such file`);
  return readFileSync(path, 'utf8');
}
