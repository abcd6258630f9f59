/**
 * The rules as data, per rules version: what GET /api/v1/rules and the MCP rules resource publish so that a
 * bot or a model can play without reading prose. Everything is read from the engine's own constants (board
 * geometry, catalogue, champions, setup, versions), so the published rules cannot drift from the played ones.
 */
import { ORTHOGONAL, SIZE, SQUARES, type Edge } from "./board";
import { CATALOGUE } from "./catalogue";
import { CHAMPIONS, ROSTER } from "./champions";
import { MAX_RANK, MIN_RANK } from "./rules";
import { ELEMENTS, HAND_SIZE, MUTATORS, PIECES } from "./setup";
import { CURRENT_RULES_VERSION, RULES_VERSIONS, rulesOf, type DealGenerator } from "./versions";
import { CAPTURE_KINDS, type CaptureKind, type ChampionId, type ChessPiece, type Mutator, type Ruleset, type RulesVersion } from "./types";

/** One line per ability, capture kind, piece and mutator; the names themselves come from the engine. */
const ABILITY: Record<ChampionId, string> = {
  knight: "when placed it also attacks its knight-jump squares, comparing rank totals",
  bastion: "can never be captured, by any rule",
  usurper: "its comparisons as attacker also capture on equal ranks (<=, under reverse)",
  herald: "after it is placed its owner draws one extra card while the pile has any",
  tidecaller: "cards of its element orthogonally adjacent to it count +1 on every rank, whoever owns them",
  reaver: "its own comparisons on its placement ignore reverse and the elemental -1",
};
const CAPTURE: Record<CaptureKind, string> = {
  same: "mutator same: touching edges equal the facing edges of 2+ adjacent cards; the opponent's among them flip",
  plus: "mutator plus: equal sums of touching edge pairs for 2+ adjacent cards; the opponent's among them flip",
  basic: "the placed card's edge facing an orthogonal neighbour is strictly greater than the neighbour's opposite edge",
  chess: "from a chess tile: the squares its piece reaches; straight lines compare facing edges, diagonals and jumps rank totals",
  knight: "the knight champion's knight-jump squares, comparing rank totals",
  combo: "mutator combo: every flipped card attacks its own neighbours by the basic rule, in a chain",
};
const PIECE: Record<ChessPiece, string> = {
  knight: "the knight-jump squares",
  bishop: "each diagonal up to the first occupied square",
  rook: "each straight line up to the first occupied square",
  queen: "rook and bishop together",
  king: "all 8 surrounding squares",
};
const MUTATOR: Record<Mutator, string> = {
  same: CAPTURE.same,
  plus: CAPTURE.plus,
  combo: CAPTURE.combo,
  reverse: "basic, chess and knight comparisons capture on a lower rank instead of a higher one",
  elemental: "three squares carry an element: +1 on every rank for a card of that element, -1 for another (within 1..10)",
};
const RULESETS: readonly Ruleset[] = ["classic", "mutators"];
const SEED_FORM: Record<DealGenerator, string> = {
  xoroshiro128plus: "an integer 0..2^31-1 seeding xoroshiro128+ (pure-rand) and its uniform integers",
  "hmac-sha256":
    "128 random bits as 32 lowercase hex digits, keying HMAC-SHA-256 over the label tile-arena/deal/v4 and a block counter; integers by rejection sampling",
};

/** The rules of one version as plain JSON. */
export function rulesData(version: RulesVersion) {
  const v = rulesOf(version);
  const tiedBoard: "first_mover" | "draw" = v.tieGoesToFirstMover ? "first_mover" : "draw";
  const hand = (ruleset: Ruleset) => ({
    firstMover: HAND_SIZE + v.firstMoverExtraCards[ruleset] + 1,
    secondMover: HAND_SIZE + 1,
  });
  return {
    version,
    current: version === CURRENT_RULES_VERSION,
    board: {
      size: SIZE,
      squares: [...SQUARES],
      files: "a-d, left to right",
      ranks: "1-4, bottom to top",
      // Which way each edge faces, as steps on the board: n faces rank + 1 (towards row 4).
      edges: Object.fromEntries(ORTHOGONAL.map((d) => [d.edge, { fileStep: d.df, rankStep: d.dr }])) as Record<Edge, { fileStep: number; rankStep: number }>,
      orientation: "n faces up (towards rank 4), e right (towards file d), s down (towards rank 1), w left (towards file a)",
    },
    moves: {
      notation: "<card>@<square>, e.g. E7@b3; a played move may add x<captures>, e.g. E7@b3x2",
      legal: "any card of your hand on any empty square, on your turn",
      placements: SQUARES.length,
      ranks: { min: MIN_RANK, max: MAX_RANK },
    },
    hands: Object.fromEntries(RULESETS.map((r) => [r, hand(r)])) as Record<Ruleset, ReturnType<typeof hand>>,
    draw: "after each placement the mover draws one card while the pile has any (two after the herald)",
    captureOrder: [...CAPTURE_KINDS],
    captures: CAPTURE_KINDS.map((kind) => ({ kind, rule: CAPTURE[kind] })),
    chessTiles: { perGame: 2, pieces: PIECES.map((piece) => ({ piece, reaches: PIECE[piece] })) },
    mutators: {
      ruleset: "mutators",
      perGame: 2,
      kinds: MUTATORS.map((mutator) => ({ mutator, rule: MUTATOR[mutator] })),
      lastPlacementWithout: [...v.lastPlacementWithout],
    },
    elements: [...ELEMENTS],
    deal: {
      generator: v.deal,
      seed: SEED_FORM[v.deal],
      order:
        "shuffle the pile, two chess tiles, the first mover, two champion draws, then (mutators) two mutators and (elemental) three element squares: docs/RULES.md, The deal",
    },
    champions: ROSTER.map((id) => {
      const c = CHAMPIONS[id];
      return { champion: id, card: c.id, name: c.name, element: c.element, ranks: { ...c.ranks }, ability: ABILITY[id] };
    }),
    cards: CATALOGUE.map((c) => ({ id: c.id, name: c.name, element: c.element, tier: c.tier, ranks: { ...c.ranks } })),
    end: {
      boardFull: "after the 16th placement the seat owning more cards wins",
      tiedBoard,
      other: ["resignation: the other seat wins", "timeout: the seat to move ran out of time and loses", "aborted: before both seats moved, no result"],
    },
  };
}

export type RulesData = ReturnType<typeof rulesData>;

/** Every rules version, newest last, with the one new games are created with. */
export function allRulesData() {
  return { current: CURRENT_RULES_VERSION, versions: RULES_VERSIONS.map(rulesData) };
}
