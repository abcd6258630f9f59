/**
 * The six champions. A champion is a card with one ability; each seat holds its champion from the start.
 * Ranks are set against the ability: the bastion can never be flipped, so it is the weakest on paper;
 * the reaver's ability only matters in the mutators ruleset, so it is the strongest.
 */
import { CATALOGUE } from "./catalogue";
import type { CardDef, ChampionId, Element } from "./types";

/** Champions carry tier 4, outside the catalogue's bands: they are not drawn, they are chosen. */
export const CHAMPION_TIER = 4;

/** Order used when the seed draws a champion; never reorder (it would change old games). */
export const ROSTER: readonly ChampionId[] = ["knight", "bastion", "usurper", "herald", "tidecaller", "reaver"];

function champion(id: string, name: string, c: ChampionId, element: Element, n: number, e: number, s: number, w: number): CardDef {
  return Object.freeze({ id, name, ranks: Object.freeze({ n, e, s, w }), element, tier: CHAMPION_TIER, champion: c });
}

export const CHAMPIONS: Record<ChampionId, CardDef> = Object.freeze({
  knight: champion("K1", "Errant Knight", "knight", "gale", 5, 5, 5, 5),
  bastion: champion("K2", "Bastion", "bastion", "stone", 4, 4, 4, 4),
  usurper: champion("K3", "Usurper", "usurper", "ember", 6, 6, 5, 5),
  herald: champion("K4", "Herald", "herald", "gale", 6, 5, 6, 5),
  tidecaller: champion("K5", "Tidecaller", "tidecaller", "tide", 6, 5, 6, 5),
  reaver: champion("K6", "Reaver", "reaver", "ember", 7, 5, 6, 5),
});

const BY_ID = new Map<string, CardDef>([...CATALOGUE, ...Object.values(CHAMPIONS)].map((c) => [c.id, c]));

/** A catalogue or champion card by its id (exact, upper-case code), or undefined. */
export function cardById(id: string): CardDef | undefined {
  return BY_ID.get(id);
}

/** Like cardById for ids the engine itself put in a state; a miss is a programming error. */
export function card(id: string): CardDef {
  const c = BY_ID.get(id);
  if (!c) throw new Error(`unknown card ${id}`);
  return c;
}
