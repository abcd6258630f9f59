/** A WebSocket seat or spectator through the official Colyseus SDK, recording every state it saw. */
import { Client, type Room } from "@colyseus/sdk";
import { SQUARES } from "./play";

export interface WsPlayer {
  room: Room;
  seen: any[];
  refused: any[];
  /** The `moved` acks this seat received, in order. */
  moved: Array<{ notation: string; n: number }>;
  /** Plays this seat until the game ends; resolves with the final state JSON. */
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

function player(room: Room): WsPlayer {
  const seen: any[] = [];
  const refused: any[] = [];
  const moved: Array<{ notation: string; n: number }> = [];
  room.onMessage("refused", (m) => refused.push(m));
  room.onMessage("moved", (m) => moved.push(m));
  room.onStateChange((s: any) => seen.push(s.toJSON()));
  return {
    room,
    seen,
    refused,
    moved,
    leave: () => room.leave(true).then(() => undefined),
    playToEnd: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("ws game did not finish")), 30_000);
        let sentAt = -1;
        const act = (s: any) => {
          if (!s?.hands) return; // the first full state has not arrived yet
          if (s.status === "finished") {
            clearTimeout(timer);
            resolve(s.toJSON());
            return;
          }
          const hand = [...s.hands.entries()][0] as [string, any] | undefined;
          if (!hand || s.status !== "active") return;
          const [seat, h] = hand;
          if (s.turn !== seat || sentAt === s.moveCount || h.cards.length === 0) return;
          const taken = new Set([...s.board.keys()]);
          const square = SQUARES.find((q) => !taken.has(q))!;
          sentAt = s.moveCount;
          room.send("move", { card: h.cards[0].id, square });
        };
        room.onStateChange(act);
        act(room.state);
      }),
  };
}
