/**
 * SVG art drawn from the engine's own card data: a card's element picks its colours and emblem, its ranks
 * are printed at the edges they fight with, its tier shows as pips. Pure string building, so the output is
 * byte-for-byte reproducible and the committed files can be checked against it.
 */
import type { CardDef, Element } from "../../engine";
import { ELEMENT_COLORS, GEOMETRY, SEAT_COLORS, UI_COLORS } from "./palette";

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** One simple emblem per element, centred on (50, 70). Corners: crown top-left, tier pips top-right. */
const EMBLEMS: Record<Element, string> = {
  ember: `<path d="M50 44 C62 58 66 66 62 80 C59 90 41 90 38 80 C35 70 42 64 46 56 C48 64 52 66 54 62 C56 56 53 50 50 44 Z"/>`,
  tide: `<path d="M28 72 C36 62 44 62 50 72 C56 82 64 82 72 72 L72 84 C64 94 56 94 50 84 C44 74 36 74 28 84 Z"/><circle cx="50" cy="56" r="6"/>`,
  gale: `<path d="M30 60 H62 A8 8 0 1 0 54 52" fill="none" stroke-width="5" stroke-linecap="round"/><path d="M30 72 H70 A8 8 0 1 1 62 80" fill="none" stroke-width="5" stroke-linecap="round"/><path d="M34 84 H52" fill="none" stroke-width="5" stroke-linecap="round"/>`,
  stone: `<path d="M50 46 L70 58 L70 82 L50 94 L30 82 L30 58 Z"/><path d="M50 46 L50 70 L70 82 M50 70 L30 82" fill="none" stroke-width="2"/>`,
};

const CROWN = `<path d="M8 20 L10 10 L15 15 L20 10 L22 20 Z" fill="${UI_COLORS.champion}" stroke="#7A5200" stroke-width="1.5"/>`;

function ranks(c: CardDef, ink: string): string {
  const { ranks: at, card } = GEOMETRY;
  const text = (x: number, y: number, v: number) =>
    `<text x="${x}" y="${y}" font-size="${card.rankFontSize}" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${ink}">${v === 10 ? "A" : v}</text>`;
  return [text(at.n.x, at.n.y, c.ranks.n), text(at.e.x, at.e.y, c.ranks.e), text(at.s.x, at.s.y, c.ranks.s), text(at.w.x, at.w.y, c.ranks.w)].join("");
}

function pips(tier: number, ink: string): string {
  const n = Math.min(tier, 4);
  return Array.from({ length: n }, (_, i) => `<circle cx="${88 - i * 7}" cy="14" r="2.5" fill="${ink}"/>`).join("");
}

/** The art of one card or champion (viewBox 100 x 140). Owner colour is left to the client's frame. */
export function cardSvg(c: CardDef): string {
  const { width, height, cornerRadius, border } = GEOMETRY.card;
  const col = ELEMENT_COLORS[c.element];
  const frame = c.champion ? UI_COLORS.champion : col.dark;
  const id = `g-${c.id}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(c.name)}">`,
    `<title>${esc(c.name)} (${c.id})</title>`,
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col.light}"/><stop offset="1" stop-color="${col.base}"/></linearGradient></defs>`,
    `<rect x="${border / 2}" y="${border / 2}" width="${width - border}" height="${height - border}" rx="${cornerRadius}" fill="url(#${id})" stroke="${frame}" stroke-width="${border}"/>`,
    `<g fill="${col.dark}" stroke="${col.dark}" opacity="0.85">${EMBLEMS[c.element]}</g>`,
    c.champion ? CROWN : "",
    ranks(c, col.ink),
    pips(c.tier, col.ink),
    `<rect x="6" y="${height - 26}" width="${width - 12}" height="18" rx="4" fill="${col.dark}" opacity="0.9"/>`,
    `<text x="50" y="${height - 17}" font-size="${GEOMETRY.card.nameFontSize}" font-family="Inter, sans-serif" text-anchor="middle" dominant-baseline="central" fill="#FFFFFF">${esc(c.name)}</text>`,
    `</svg>`,
    "",
  ].join("\n");
}

export const BRAND = {
  name: "Tile Arena",
  shortName: "Arena",
  tagline: "Place. Capture. Outplay.",
  colors: { primary: UI_COLORS.accent, background: UI_COLORS.background, seatA: SEAT_COLORS.A, seatB: SEAT_COLORS.B },
  font: "Inter",
} as const;

/** The mark: four tiles of the 4 x 4 board in the element colours, the top-right one captured (turned). */
export function logoSvg(): string {
  const els: Element[] = ["ember", "tide", "gale", "stone"];
  const tiles = els
    .map(
      (el, i) =>
        `<rect x="${8 + (i % 2) * 44}" y="${8 + Math.floor(i / 2) * 44}" width="40" height="40" rx="7" fill="${ELEMENT_COLORS[el].base}"${i === 1 ? ` transform="rotate(12 ${50} ${28})"` : ""}/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100" role="img" aria-label="${BRAND.name}"><title>${BRAND.name}</title><rect width="100" height="100" rx="18" fill="${UI_COLORS.background}"/>${tiles}</svg>\n`;
}

export function wordmarkSvg(): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 80" width="360" height="80" role="img" aria-label="${BRAND.name}">`,
    `<title>${BRAND.name}</title>`,
    `<text x="0" y="56" font-family="Inter, sans-serif" font-size="52" font-weight="800" letter-spacing="-1" fill="${UI_COLORS.text}">Tile<tspan fill="${UI_COLORS.accent}"> Arena</tspan></text>`,
    `</svg>`,
    "",
  ].join("\n");
}
