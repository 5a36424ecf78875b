import { defineConfig } from 'vitest/config';
import LongestFirst from './tests/support/longest-first.ts';

// Files run without isolation: a worker imports the code under test (zod, chess.js, xstate, the
// console's whole graph, playwright-core) once for all of them instead of once per file, a quarter to
// a half of their CPU time. A file goes here only if it leaves nothing behind for the next file in the
// same worker: it stops what it starts (consoles, journals, nats-server, Chromium) in its own hooks,
// mocks nothing (vi.spyOn, vi.mock), sets no process.env and uses no process-wide registry a later file
// reads (serialport's SerialPortMock.binding: dgt-device, dgt-session, dgt-set-and-run stay isolated).
// The code's own module state is one checkpoint thread per process (journal-checkpoint.ts, made for
// many journals), johnny-five loaded once (firmata-clock.ts) and a mock port counter that only grows
// (simulators/dgt/links.ts). Any file not listed runs isolated, as every file did before.
const sharedModules = [
  // Pure code: the clock engine, pairing, the tournament record, decoders, the contract.
  'tests/standalone.test.ts',
  'tests/arbiter-console/{coalescer,first-screen-markup,log-line,permissions,protocol,round-actor,teardown,tournament-protocol,view-patch}.test.ts',
  'tests/bus/source-order.test.ts',
  'tests/clock-engine/{audit-jumps,clock-unreachable,editions,fold-controls,fold-laws,game-config,laws-editions}.test.ts',
  'tests/clock-engine/{oracles,pgn-clock,position-endings,properties,rule-refusals,section-category,time-control,timekeeper}.test.ts',
  'tests/device-bridge/{dgt-artefacts,dgt-captures,dgt-clock-queue,dgt-codec,dgt-decoder-linear,dgt-positions}.test.ts',
  'tests/device-bridge/{dgt-roles,firmata-clock,firmata-lcd,line-codec,line-probe,line-reader}.test.ts',
  'tests/pairing/{fast-paths,fixtures,limbs,matching,oracle,properties,weights,whole-tournaments-1,whole-tournaments-2}.test.ts',
  'tests/simulators/{firmata-firmware,game-plan,line-virtual-clock,players-pgn,players-virtual}.test.ts',
  'tests/tournament/{berger,cairns-cup.e2e,donostia.e2e,playoff-format,playoff,prizes,record-results}.test.ts',
  'tests/tournament/{tiebreaks-events,tiebreaks-fide,tiebreaks-reference,tiebreaks-rules,trf}.test.ts',
  // Consoles, journals and bus clients in the test's own process (stopped in its hooks).
  'tests/arbiter-console/{attention-rounds,board-snapshots,broadcast-tags,cairns-late-forfeit,claims-offers}.test.ts',
  'tests/arbiter-console/{credentials,csv-export,event-console,event-donostia,event-ids,fuzz,hall-actors,hall}.test.ts',
  'tests/arbiter-console/{host-commands,http-feeds,http-security,journal-archive,journal,pairing-worker}.test.ts',
  'tests/arbiter-console/{playoff-console,refusal-codes,regulations-console,round-in-parts,section-category}.test.ts',
  'tests/arbiter-console/{section-sectors,server,simulated-results,team,timekeeper,tournament-burst,tournament-desk}.test.ts',
  'tests/arbiter-console/tournament-http.test.ts',
  'tests/bus/{bus,outbox-order,reader-failover,rebuild-archive}.test.ts',
  'tests/clock-engine/machine.test.ts',
  'tests/tournament/event.test.ts',
  // The page in Chromium (tests/arbiter-console/browser.ts: each file launches and closes its own).
  'tests/arbiter-console/{claims-page,fines-page,first-screen,hall-glance-page,hall-page,missed-moves-page}.test.ts',
  'tests/arbiter-console/{next-round-wording,page-stale,page,playoff-format,print-page,prizes-console}.test.ts',
  'tests/arbiter-console/{regulations-page,result-conflict,swiss-round-page,tournament-page,tournament-sections-page}.test.ts',
];

const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    globalSetup: ['./tests/support/build.ts'],
    // Three workers on two cores: the longest files mostly wait (simulated games in accelerated time,
    // nats-server faults, DGT boards over ptys, the packaging test's offline install: 0.1-0.25 of a core
    // each over their run, measured per file from /proc, 5 Dec 2026) and start first (longest-first.ts).
    // Four workers, with 25 more files sharing their imports, took 513-547 s against 580 s, but the
    // clean-clone CI then timed out board-end-dgt's DGT boards (15 s for a move read, two tests): back to
    // three and the list above as it was. On the machine shared with other work the whole `npm test` was
    // CPU (787-854 s user+sys, the cores 91-97 % busy, vmstat); alone it used 763-868 s at 140 % of the
    // two cores (README): less CPU in the tests, and files that wait less, both shorten it.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      { test: { name: 'shared-modules', include: sharedModules, isolate: false, ...timeouts } },
      { test: { name: 'isolated', include: ['tests/**/*.test.ts'], exclude: sharedModules, ...timeouts } },
    ],
  },
});
