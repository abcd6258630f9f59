/**
 * The client colour system, one source for card art, the brand kit and the JSON that clients load. Seats
 * are blue and red because those read apart for the common forms of colour blindness when paired with
 * the ownership border the card art also draws.
 */
import type { Element } from "../../engine";

export const ELEMENT_COLORS: Record<Element, { base: string; light: string; dark: string; ink: string }> = {
  ember: { base: "#E4572E", light: "#F6A58C", dark: "#8E2A10", ink: "#FFFFFF" },
  tide: { base: "#2E86AB", light: "#8CC7E0", dark: "#124A61", ink: "#FFFFFF" },
  gale: { base: "#7FB069", light: "#C3DDB7", dark: "#3F6331", ink: "#10200A" },
  stone: { base: "#8D8478", light: "#C9C2B8", dark: "#4A443C", ink: "#FFFFFF" },
};

export const SEAT_COLORS = { A: "#3A6FF2", B: "#E23A4E" } as const;

export const UI_COLORS = {
  background: "#14161F",
  surface: "#1F2330",
  board: "#2A2F40",
  boardLine: "#3C4358",
  text: "#F2F3F7",
  textMuted: "#A3A8B8",
  accent: "#F2B134",
  champion: "#F2B134",
  success: "#3FB37F",
  danger: "#E23A4E",
} as const;

/** Every named colour as one flat, sorted list: what design tools import. */
export function paletteSwatches(): Array<{ name: string; hex: string }> {
  const out: Array<{ name: string; hex: string }> = [];
  for (const [el, c] of Object.entries(ELEMENT_COLORS)) for (const [k, hex] of Object.entries(c)) out.push({ name: `element.${el}.${k}`, hex });
  for (const [seat, hex] of Object.entries(SEAT_COLORS)) out.push({ name: `seat.${seat}`, hex });
  for (const [k, hex] of Object.entries(UI_COLORS)) out.push({ name: `ui.${k}`, hex });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Named timings (ms) and CSS easings of the four board animations; the web client uses the same. */
export const ANIMATIONS = {
  place: { durationMs: 220, easing: "cubic-bezier(0.2, 0.8, 0.2, 1)", delayMs: 0, description: "a card drops from the hand onto its square" },
  flip: { durationMs: 360, easing: "cubic-bezier(0.45, 0, 0.55, 1)", delayMs: 0, description: "a captured card turns over to its new owner's colour" },
  capture: {
    durationMs: 480,
    easing: "cubic-bezier(0.34, 1.56, 0.64, 1)",
    delayMs: 120,
    staggerMs: 90,
    description: "captures flash then flip one after another",
  },
  win: { durationMs: 1400, easing: "cubic-bezier(0.16, 1, 0.3, 1)", delayMs: 300, description: "the winner's cards pulse and the result banner rises" },
} as const;

/** Board and card geometry in abstract units (a card is 100 wide); clients scale to their canvas. */
export const GEOMETRY = {
  unit: "px at scale 1",
  board: { files: ["a", "b", "c", "d"], ranks: [1, 2, 3, 4], squareSize: 120, gap: 8, padding: 16, origin: "a1 is bottom-left" },
  card: { width: 100, height: 140, cornerRadius: 10, border: 4, artInset: 10, rankFontSize: 20, nameFontSize: 11 },
  ranks: { n: { x: 50, y: 26 }, e: { x: 86, y: 70 }, s: { x: 50, y: 102 }, w: { x: 14, y: 70 } },
  hand: { overlap: 0.35, maxCards: 6 },
} as const;
