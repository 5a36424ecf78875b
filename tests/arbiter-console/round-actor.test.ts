// A round's game clocks live in table groups (arbiter-console/hall/round-actor.ts): every clock is reached
// by its systemId while the round is seated and is gone from the system once the round is closed, and
// no actor has more than a group's worth of children (XState's spawn and stop cost grows with the square).
import { SimulatedClock, createActor, type AnyActorRef } from 'xstate';
import { describe, expect, it } from 'vitest';
import { gameConfig } from '../../clock-engine/index.ts';
import { gameSystemId, roundLogic, type RoundActorInput } from '../../arbiter-console/internal.ts';

const BOARDS = 100;

function childrenOf(actor: AnyActorRef): AnyActorRef[] {
  return Object.values((actor.getSnapshot() as { children: Record<string, AnyActorRef> }).children);
}

describe('round actor', () => {
  it(`keeps ${BOARDS} game clocks in groups of at most 32, each reachable by its systemId, and stops every one at the close`, () => {
    const clock = new SimulatedClock();
    const config = gameConfig('G/90+30');
    const input: RoundActorInput = { section: 'open', round: 3, phase: 'scheduled' };
    const round = createActor(
      roundLogic(() => clock.now()),
      { clock, input },
    ).start();
    const boards = Array.from({ length: BOARDS }, (_, i) => ({ systemId: gameSystemId('open', 3, String(i + 1)), board: String(i + 1), game: { config } }));
    round.send({ type: 'publish', boards });

    const groups = childrenOf(round);
    expect(groups).toHaveLength(Math.ceil(BOARDS / 32));
    expect(groups.map((g) => childrenOf(g).length)).toEqual([32, 32, 32, 4]);
    for (const b of boards) expect(round.system.get(b.systemId)?.getSnapshot().status, b.board).toBe('active');

    round.send({ type: 'started' });
    round.send({ type: 'finished' });
    round.send({ type: 'close' });
    expect((round.getSnapshot().context as { phase: string }).phase).toBe('closed');
    expect(childrenOf(round)).toEqual([]);
    for (const b of boards) expect(round.system.get(b.systemId), b.board).toBeUndefined();
    round.stop();
  });
});
