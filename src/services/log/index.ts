/** The public game log: an append-only Merkle tree (RFC 9162) of every finished game, with signed tree heads. */
export { canonicalJson } from "./canonical";
export { checkEntry } from "./check";
export { gameEntryOf, leafOf, type GameEntry, type LogEntry, type PrivateEntry } from "./entry";
export { checkpointOf, logKeyFrom, parseCheckpoint, signHead, verifyHead, type LogKey } from "./heads";
export { loadLogKey, openLogKeys, type LogKeyRing } from "./keys";
export { LogSequencer } from "./sequencer";
export { LogService, served, MAX_ENTRIES_PER_READ, type ConsistencyProof, type InclusionProof, type ServedEntry } from "./service";
export * as merkle from "./merkle";
