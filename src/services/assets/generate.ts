/**
 * Every client asset that can be made from the engine's data and this module's design tokens, as
 * path -> bytes. scripts/build-assets.ts writes them under public/assets; the test regenerates them and
 * compares with what is committed. Voices are the exception (espeak-ng output depends on its version), so
 * the build script makes them only where espeak-ng is installed and keeps the committed ones otherwise.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CATALOGUE, CHAMPIONS } from "../../engine";
import { BRAND, cardSvg, logoSvg, wordmarkSvg } from "./art";
import { SOUNDS } from "./audio";
import { ANIMATIONS, ELEMENT_COLORS, GEOMETRY, paletteSwatches, SEAT_COLORS, UI_COLORS } from "./palette";

/** Spoken announcements: file name -> text. */
export const VOICE_LINES: Record<string, string> = {
  "your-turn": "Your turn.",
  capture: "Capture!",
  victory: "Victory!",
  defeat: "Defeat.",
  draw: "It's a draw.",
};

export const FONT_PACKAGE = "@fontsource/inter";
export const FONT_WEIGHTS = [400, 700] as const;

const json = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** The open font files, copied from the maintained npm package (SIL Open Font License 1.1). */
function fonts(): Map<string, Buffer> {
  const root = dirname(require.resolve(`${FONT_PACKAGE}/package.json`));
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const out = new Map<string, Buffer>();
  const files = FONT_WEIGHTS.map((w) => {
    const name = `inter-latin-${w}-normal.woff2`;
    out.set(`fonts/${name}`, readFileSync(join(root, "files", name)));
    return { weight: w, style: "normal", subset: "latin", file: name };
  });
  out.set("fonts/OFL.txt", readFileSync(join(root, "LICENSE")));
  out.set("fonts/fonts.json", json({ family: "Inter", license: "OFL-1.1", licenseFile: "OFL.txt", source: `${FONT_PACKAGE}@${version}`, files }));
  return out;
}

/** All generated assets except voices, keyed by their path under public/assets. */
export function generateAssets(): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const c of CATALOGUE) out.set(`cards/${c.id}.svg`, Buffer.from(cardSvg(c)));
  for (const [id, c] of Object.entries(CHAMPIONS)) out.set(`champions/${id}.svg`, Buffer.from(cardSvg(c)));
  out.set(
    "cards/index.json",
    json({
      cards: CATALOGUE.map((c) => ({ id: c.id, name: c.name, element: c.element, tier: c.tier, ranks: c.ranks, art: `cards/${c.id}.svg` })),
      champions: Object.entries(CHAMPIONS).map(([id, c]) => ({ id, card: c.id, name: c.name, element: c.element, ranks: c.ranks, art: `champions/${id}.svg` })),
    }),
  );
  out.set("colors.json", json({ elements: ELEMENT_COLORS, seats: SEAT_COLORS, ui: UI_COLORS }));
  out.set("palette.json", json({ swatches: paletteSwatches() }));
  out.set("animations.json", json({ animations: ANIMATIONS }));
  out.set("geometry.json", json(GEOMETRY));
  out.set("brand/logo.svg", Buffer.from(logoSvg()));
  out.set("brand/wordmark.svg", Buffer.from(wordmarkSvg()));
  out.set("brand/brand.json", json({ ...BRAND, logo: "brand/logo.svg", wordmark: "brand/wordmark.svg" }));
  for (const [name, make] of Object.entries(SOUNDS)) out.set(`sounds/${name}.wav`, make());
  for (const [path, bytes] of fonts()) out.set(path, bytes);
  out.set(
    "voices/voices.json",
    json({ engine: "espeak-ng", voice: "en-us", lines: Object.entries(VOICE_LINES).map(([id, text]) => ({ id, text, file: `voices/${id}.wav` })) }),
  );
  return out;
}
