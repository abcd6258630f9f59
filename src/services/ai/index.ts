/** The house opponent and the post-game review: the public face of src/services/ai. */
export { AI_LEVELS, decide, LEVELS, type AiLevel, type DecideOptions } from "./decide";
export { reviewGame, markOf, type Review, type ReviewedMove, type SeatSummary, type Mark } from "./review";
export { playGame, playMatchGame, runMatch, dealSeed, type MatchOptions, type MatchSummary, type GameOutcome, type Side } from "./selfplay";
export type { Placement } from "./search";
