/**
 * What a game room keeps per WebSocket client beside Colyseus (its `userData`), and the per-client message
 * window read from it. Plain data and arithmetic on the wall clock, kept out of the room so that the room is
 * only the Colyseus adapter; hands (rooms/hands.ts) and rematches (rooms/rematch.ts) read the same data.
 */
import type { Client } from "@colyseus/core";
import type { Seat } from "../src/engine";
import type { HandHolder } from "./hands";
import { DEFAULTS } from "../src/shared/config";

/**
 * `seat`: null for a spectator. `token`: a seat's own player token, as it joined; its seat in a rematch is
 * reserved with it (rooms/rematch.ts). `windowStart` and `messages`: the client's message window (withinWindow).
 */
export interface ClientData extends HandHolder {
  windowStart: number;
  messages: number;
  token?: string;
}

/** Room messages per second per client, unless the server passes its frame budget (WS_FRAMES_PER_SECOND). */
export const MESSAGES_PER_SECOND = DEFAULTS.wsFramesPerSecond;

/** A joining client's data: its seat (null for a spectator) and token, and a fresh message window. */
export function newClientData(seat: Seat | null, token: string | undefined, now = Date.now()): ClientData {
  return { seat, token, windowStart: now, messages: 0 };
}

/** The client's data; none before its join has set it. */
export function dataOf(client: Client): ClientData | undefined {
  return client.userData as ClientData | undefined;
}

/**
 * Counts one message in the client's one-second window: false once the window holds more than `perSecond`
 * (a turn-based client never needs more). Colyseus' own `maxMessagesPerSecond` reads the room clock, which a
 * game room does not tick, so the window is kept here with the wall clock.
 */
export function withinWindow(data: ClientData, perSecond: number, now = Date.now()): boolean {
  if (now - data.windowStart >= 1000) {
    data.windowStart = now;
    data.messages = 0;
  }
  return ++data.messages <= perSecond;
}
