/**
 * A WebSocket seat or spectator through the official Colyseus SDK, recording every state it saw, every
 * message, and every raw frame it received. It plays as a stock client does: from `room.state` (public)
 * plus its seat's `hand` messages, whose `legal` list says what it may play.
 */
import { Client, type Room } from "@colyseus/sdk";
import type { HandCard, SeatHand } from "../../rooms/messages";

/** A hand as this client received it: from a `hand` message, or inside its `moved` acknowledgement. */
export interface ReceivedHand extends SeatHand {
  n: number;
  via: "hand" | "moved";
}

export interface WsPlayer {
  room: Room;
  seen: any[];
  refused: any[];
  /** The `moved` acks this seat received, in order. */
  moved: Array<{ notation: string; n: number; hand: SeatHand }>;
  /** Every hand this client received, in order; the last one is what it holds now. */
  hands: ReceivedHand[];
  /** Every raw frame the socket received (state, patches, messages), reconnections included. */
  frames: Buffer[];
  /** Plays this seat until the game ends (the first legal move each turn); resolves with the final state JSON. */
  playToEnd(): Promise<any>;
  leave(): Promise<void>;
}

export async function joinWs(base: string, gameId: string, playerToken?: string): Promise<WsPlayer> {
  return player(await new Client(base).joinById(gameId, playerToken ? { playerToken } : {}));
}

/** What a game's create and join answers carry with `reserveSeat`, as the SDK's consumeSeatReservation takes it. */
export type SeatReservation = Parameters<Client["consumeSeatReservation"]>[0];

/** A seat that connects with the seat reservation its create or join answer carried (`reserveSeat`). */
export async function consumeWs(base: string, reservation: SeatReservation): Promise<WsPlayer> {
  return player(await new Client(base).consumeSeatReservation(reservation));
}

/** The card ids of a hand, sorted (a hand's order is the engine's; compare as sets). */
export const idsOf = (cards: readonly HandCard[] | readonly { id: string }[]): string[] => cards.map((c) => c.id).sort();

/**
 * Wraps the connection's frame handler, which the SDK keeps across its reconnections: every frame after the
 * join is recorded (the full state comes after the join's answer, so it is among them).
 */
function recordFrames(room: Room, frames: Buffer[]): void {
  const events = (room.connection as unknown as { events: { onmessage?: (ev: { data: ArrayBuffer }) => void } }).events;
  const inner = events.onmessage;
  events.onmessage = (ev) => {
    frames.push(Buffer.from(ev.data));
    inner?.(ev);
  };
}

export function player(room: Room): WsPlayer {
  const seen: any[] = [];
  const refused: any[] = [];
  const moved: WsPlayer["moved"] = [];
  const hands: ReceivedHand[] = [];
  const frames: Buffer[] = [];
  recordFrames(room, frames);
  const turnListeners: Array<() => void> = [];
  room.onMessage("refused", (m) => refused.push(m));
  room.onMessage("moved", (m) => {
    moved.push(m);
    hands.push({ n: m.n, ...m.hand, via: "moved" });
    turnListeners.forEach((f) => f());
  });
  room.onMessage("hand", (m) => {
    hands.push({ ...m, via: "hand" });
    turnListeners.forEach((f) => f());
  });
  room.onStateChange((s: any) => {
    seen.push(s.toJSON());
    turnListeners.forEach((f) => f());
  });
  return {
    room,
    seen,
    refused,
    moved,
    hands,
    frames,
    leave: () => room.leave(true).then(() => undefined),
    playToEnd: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("ws game did not finish")), 30_000);
        let sentAt = -1;
        const act = () => {
          const s = room.state;
          if (s?.status === "finished") {
            clearTimeout(timer);
            resolve(s.toJSON());
            return;
          }
          const hand = hands.at(-1);
          if (!hand || hand.legal.length === 0 || sentAt === hand.n) return;
          sentAt = hand.n;
          room.send("move", { move: hand.legal[0] });
        };
        turnListeners.push(act);
        act();
      }),
  };
}
