/**
 * Scale-out that survives losing a process: the process registry (heartbeats in the shared store), game
 * ownership fenced by an owner epoch, and the failover that re-creates a dead process's games elsewhere.
 * See docs/DEPLOY.md.
 */
export { assertCanJoin, ClusterConflictError, ProcessRegistry, type ClusterTiming } from "./registry";
export { GAME_MOVED_CODE, Ownership, type GameFence, type GameOwner, type HeldRoom } from "./ownership";
export { Failover } from "./failover";
export { detachListing, dropListings, relist } from "./listing";
