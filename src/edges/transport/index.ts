/** The WebSocket edge: Colyseus' transport with a per-socket frame budget, and its logging. */
export { clientAddress, CLOSE_POLICY, GuardedTransport, hasReservation, reservationOf, type GuardOptions } from "./guarded-transport";
export { colyseusLogger } from "./colyseus-logger";
export { FrameBudget } from "./frame-budget";
export { ConnectionScope, RateLimitedLog } from "./log-once";
export { IndexedLocalDriver } from "./indexed-driver";
export { corkForThisTurn } from "./cork";
