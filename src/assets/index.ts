/** The client-assets context's public face: generation (build time) and serving (run time). */
export { generateAssets, VOICE_LINES, FONT_PACKAGE } from "./generate";
export { assetsRouter, loadAssets, ASSETS_DIR, IMMUTABLE, type Asset } from "./serve";
