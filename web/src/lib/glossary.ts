// One-line explanations for tooltips on the board and in the hand, from docs/RULES.md; /rules has the
// full text with pictures.
export const CHAMPION_TIPS: Record<string, string> = {
  knight: "Errant Knight: when placed it also attacks its knight-jump squares, comparing rank totals.",
  bastion: "Bastion: can never be captured, by any rule.",
  usurper: "Usurper: its attacks also capture on equal ranks.",
  herald: "Herald: after it is placed its owner draws one extra card.",
  tidecaller: "Tidecaller: tide cards next to it count +1 on every rank, whoever owns them.",
  reaver: "Reaver: its own comparisons ignore reverse and the elemental -1.",
};

export const TILE_TIPS: Record<string, string> = {
  knight: "Knight tile: a card placed here also attacks the knight-jump squares (rank totals compared).",
  bishop: "Bishop tile: a card placed here also attacks along each diagonal up to the first card (rank totals).",
  rook: "Rook tile: a card placed here also attacks along each straight line up to the first card (facing edges).",
  queen: "Queen tile: a card placed here also attacks as a rook and a bishop together (each line and diagonal up to the first card).",
  king: "King tile: a card placed here also attacks all 8 surrounding squares.",
};

export const MUTATOR_TIPS: Record<string, string> = {
  same: "Same: equal facing edges with 2 or more neighbours flip those that are the opponent's.",
  plus: "Plus: equal edge sums with 2 or more neighbours flip those that are the opponent's.",
  combo: "Combo: every card flipped attacks its own neighbours in turn, in a chain.",
  reverse: "Reverse: the lower rank wins (same and plus unaffected).",
  elemental: "Elemental: a card on its own element's square counts +1, on another element's square -1.",
};

export const ELEMENT_TIPS: Record<string, string> = {
  ember: "Ember square: ember cards count +1 here, others -1.",
  tide: "Tide square: tide cards count +1 here, others -1.",
  gale: "Gale square: gale cards count +1 here, others -1.",
  stone: "Stone square: stone cards count +1 here, others -1.",
};

export const TIER_TIPS: Record<number, string> = {
  1: "Tier 1: rank total 16-18.",
  2: "Tier 2: rank total 19-21.",
  3: "Tier 3: rank total 22-24.",
  4: "Tier 4: a champion, chosen rather than drawn.",
};
