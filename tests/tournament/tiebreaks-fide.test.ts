// Every published answer of the FIDE TEC tie-break exercises (Held, C.07-2023), and the 2026 variants.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTrf, rankStandings, tiebreakContext, tiebreakValue, type UnplayedRules } from '../../tournament/internal.ts';

const dir = new URL('../fixtures/oracles/tiebreaks/fide_held_exercises/', import.meta.url);
interface Exercise {
  exercise: number;
  trf: string;
  code: string;
  round_robin?: boolean;
  value_kind: 'tiebreak_value' | 'rank';
  expected: Record<string, number | null>;
}
const oracle = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as { exercises: Exercise[]; post_2026_rules: Exercise[] };
const trf = (name: string) => parseTrf(readFileSync(new URL(name, dir), 'utf8'));

function check(exercise: Exercise, rules: UnplayedRules): void {
  const t = trf(exercise.trf);
  const roundRobin = exercise.round_robin ?? exercise.trf.includes('round_robin');
  const code = exercise.code.replace(/\/V\d$/, '');
  if (exercise.value_kind === 'rank') {
    const rows = rankStandings(t, [code], { roundRobin, unplayedRules: rules });
    for (const [id, rank] of Object.entries(exercise.expected)) {
      expect(rows.find((r) => r.id === Number(id))?.rank, `exercise ${exercise.exercise} player ${id}`).toBe(rank);
    }
    return;
  }
  const ctx = tiebreakContext(t, { roundRobin, unplayedRules: rules });
  for (const [id, value] of Object.entries(exercise.expected)) {
    const actual = tiebreakValue(ctx, code, Number(id));
    if (value === null) expect(actual, `exercise ${exercise.exercise} ${code} player ${id}`).toBeNull();
    else expect(actual, `exercise ${exercise.exercise} ${code} player ${id}`).toBeCloseTo(value, 2);
  }
}

describe('FIDE TEC tie-break exercises (C.07-2023)', () => {
  it.each(oracle.exercises.map((e) => [e.exercise, e.code, e] as const))('exercise %i %s', (_n, _code, exercise) => check(exercise, '2023'));
});

describe('the same exercises under the 2026 dummy caps', () => {
  it.each(oracle.post_2026_rules.map((e) => [e.exercise, e.code, e] as const))('exercise %i %s', (_n, _code, exercise) => check(exercise, '2026'));
});
