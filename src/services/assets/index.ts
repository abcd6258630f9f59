/** The client-assets context's public face: generation (build time) and loading (run time; src/edges/api/routes/assets.ts serves them). */
export { generateAssets, VOICE_LINES, FONT_PACKAGE } from "./generate";
export { loadAssets, ASSETS_DIR, IMMUTABLE, type Asset } from "./serve";
