/**
 * The game engine's public face: a pure, deterministic reducer over plain data. Nothing here does I/O, reads a
 * clock or uses Math.random; the whole game follows from (ruleset, seed, salt, options, actions).
 */
export * from "./types";
export { CATALOGUE } from "./catalogue";
export { CHAMPIONS, cardById } from "./champions";
export { commitmentOf, newGame } from "./setup";
export { MAX_SEED, numberedSeed, seedProblem, unknownSeed, versionForSeed } from "./seed";
export { CURRENT_RULES_VERSION, RULES_VERSIONS, UNVERSIONED, isRulesVersion, rulesOf, startingHands, type DealGenerator, type VersionRules } from "./versions";
export { apply, boardCells, legalMoves, parseMove, shownMove } from "./apply";
export { MAX_RANK, MIN_RANK } from "./rules";
export { SQUARES } from "./board";
export { notationOf } from "./notation";
export { legalMovesFor, legalNotationsFor, seatView, spectatorView, type LegalMove } from "./views";
export { decisionOf, resultFor, resultsOf, type Decision, type SeatResult } from "./outcome";
export { allRulesData, rulesData, type RulesData } from "./rules-data";
export { otherSeat } from "./seats";
export { rebuild, boardsAfterMoves, buildReplay, verifyReplay } from "./replay";
export { determinize, unseenCards, opponentChampionInHand } from "./determinize";
