/** Tournaments: pure pairing, scoring and export. */
export * from "./swiss";
export * from "./trf";
export * from "./arena";
