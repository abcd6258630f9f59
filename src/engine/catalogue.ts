/**
 * The card catalogue: 40 cards, 10 per element. Ids are the element's letter (E ember, T tide, G gale,
 * S stone) and a number; notation uses them. Balance: each element has 4 tier-1, 4 tier-2 and 2 tier-3 cards,
 * and every tier keeps its rank total (n + e + s + w) inside a band, so no element is stronger on paper.
 * The shapes differ by element (ember leans north/east, tide south, gale west, stone is even) so that
 * where a card is placed matters more than which card it is.
 */
import type { CardDef, Element, Ranks } from "./types";

/** Rank-total band of each tier, inclusive. Tests hold the catalogue to these. */
export const TIER_BANDS: Record<number, readonly [number, number]> = { 1: [16, 18], 2: [19, 21], 3: [22, 24] };

type Row = [id: string, name: string, n: number, e: number, s: number, w: number, tier: number];

const ROWS: Record<Element, Row[]> = {
  ember: [
    ["E1", "Cinder Imp", 6, 2, 3, 5, 1],
    ["E2", "Ash Hound", 5, 5, 2, 4, 1],
    ["E3", "Flare Sprite", 7, 4, 1, 5, 1],
    ["E4", "Brand Adept", 3, 6, 5, 3, 1],
    ["E5", "Kiln Golem", 6, 6, 3, 4, 2],
    ["E6", "Pyre Knight", 7, 3, 6, 3, 2],
    ["E7", "Blaze Drake", 8, 5, 2, 5, 2],
    ["E8", "Furnace Warden", 4, 7, 5, 4, 2],
    ["E9", "Phoenix", 9, 6, 3, 5, 3],
    ["E10", "Magma Titan", 6, 8, 4, 5, 3],
  ],
  tide: [
    ["T1", "Brine Eel", 2, 4, 6, 5, 1],
    ["T2", "Shoal Sprite", 4, 3, 7, 3, 1],
    ["T3", "Reef Crab", 5, 5, 5, 2, 1],
    ["T4", "Current Adept", 3, 2, 6, 6, 1],
    ["T5", "Mist Siren", 3, 5, 7, 5, 2],
    ["T6", "Coral Guard", 6, 4, 6, 4, 2],
    ["T7", "Surge Serpent", 2, 6, 8, 4, 2],
    ["T8", "Pearl Oracle", 5, 3, 6, 6, 2],
    ["T9", "Leviathan", 4, 5, 9, 5, 3],
    ["T10", "Maelstrom", 6, 4, 7, 6, 3],
  ],
  gale: [
    ["G1", "Zephyr Wisp", 3, 3, 4, 7, 1],
    ["G2", "Gust Hawk", 5, 2, 5, 5, 1],
    ["G3", "Kite Sprite", 4, 5, 2, 6, 1],
    ["G4", "Storm Adept", 2, 6, 4, 5, 1],
    ["G5", "Cloud Ram", 5, 4, 3, 7, 2],
    ["G6", "Thunder Roc", 6, 3, 4, 6, 2],
    ["G7", "Cyclone Djinn", 3, 5, 5, 8, 2],
    ["G8", "Sky Warden", 4, 6, 4, 5, 2],
    ["G9", "Tempest", 5, 5, 4, 9, 3],
    ["G10", "Stormcrow", 7, 4, 5, 7, 3],
  ],
  stone: [
    ["S1", "Pebble Golem", 4, 4, 4, 4, 1],
    ["S2", "Moss Tortoise", 5, 3, 5, 4, 1],
    ["S3", "Quarry Mole", 3, 5, 4, 5, 1],
    ["S4", "Granite Adept", 4, 5, 5, 3, 1],
    ["S5", "Cairn Guard", 5, 5, 5, 5, 2],
    ["S6", "Basalt Ogre", 6, 5, 4, 5, 2],
    ["S7", "Crag Wyrm", 5, 4, 6, 5, 2],
    ["S8", "Obsidian Sentinel", 4, 6, 5, 6, 2],
    ["S9", "Mountain King", 6, 6, 6, 5, 3],
    ["S10", "Monolith", 7, 5, 6, 5, 3],
  ],
};

function card([id, name, n, e, s, w, tier]: Row, element: Element): CardDef {
  const ranks: Ranks = { n, e, s, w };
  return Object.freeze({ id, name, ranks: Object.freeze(ranks), element, tier });
}

/** The 40 catalogue cards in a fixed order (the order the seeded shuffle starts from). */
export const CATALOGUE: readonly CardDef[] = Object.freeze((Object.keys(ROWS) as Element[]).flatMap((el) => ROWS[el].map((row) => card(row, el))));
