// Public face of the Dutch Swiss pairing engine (FIDE C.04.3, 2026 rules, as bbpPairings v6).
// Names are prefixed where a bare word (Colour, Board) would clash in tournament/index.ts.
export { pairRound, pairRoundBy, type PairingPath } from './pair.ts';
export { Completion as PairingCompletion } from './completion.ts';
export { WeightedGraph } from './matching.ts';
// The matcher's fixed-width arithmetic, for the tests that hold it to BigInt.
export * as pairingLimbs from './limbs.ts';
export { pairingRequestFromTrf, pairingOfRound, PairingInputError, type PairingOptions } from './from-trf.ts';
export { formatPairing, pairTrf, checkTrf, type RoundCheck } from './engine-io.ts';
// The file format the engine reads, so the pair command needs nothing else of tournament/.
export { decodeTrf, parseTrf } from '../trf.ts';
export {
  NoValidPairingError,
  standardPoints as standardPairingPoints,
  type Board as PairedBoard,
  type Colour as PairingColour,
  type Entrant as PairingEntrant,
  type PairingRequest,
  type PointSystem as PairingPointSystem,
  type RoundPairing,
  type RoundRecord as PairingRoundRecord,
} from './model.ts';
// The weights and the players' state, for the tests that hold the memoised and the shortened
// weights to edgeWeight.
export { completionPart, edgeWeight, edgeWeights, weightLayout, type ByeContext as PairingByeContext } from './weights.ts';
export { StagePairWeights, StageWeights } from './stage-weights.ts';
export type { PlayerState as PairingPlayerState } from './players.ts';
