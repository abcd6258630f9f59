/**
 * The boardgame.io 0.50 peer of the room benchmark: a trivial 4x4 placement game (each turn a seat places
 * on an empty cell; the game ends when the board is full, 16 moves) on boardgame.io's own server with its
 * default in-memory storage, played by two socket.io clients per match. Set-up is as in real play: the
 * match is created and both seats joined through boardgame.io's lobby REST API, then the clients connect.
 */
import { Client } from "boardgame.io/client";
import { INVALID_MOVE } from "boardgame.io/core";
import { SocketIO } from "boardgame.io/multiplayer";
import { Server } from "boardgame.io/server";
import type { AddressInfo } from "node:net";
import { nowMs } from "./common";
import type { PlayStats } from "./player";

interface PlaceG {
  cells: (string | null)[];
}
interface MoveContext {
  G: PlaceG;
  playerID: string;
  events: { endTurn(): void };
}

export const PlaceGame = {
  name: "place4x4",
  setup: (): PlaceG => ({ cells: Array<string | null>(16).fill(null) }),
  moves: {
    // client: false: the move is applied by the server only, so a client sees it after a real round trip
    // (an optimistic client-side update would count a move before the server had it).
    place: {
      move: ({ G, playerID, events }: MoveContext, cell: number) => {
        if (G.cells[cell] !== null) return INVALID_MOVE;
        G.cells[cell] = playerID;
        events.endTurn();
      },
      client: false,
    },
  },
  endIf: ({ G }: { G: PlaceG }) => (G.cells.every((c) => c !== null) ? { draw: true } : undefined),
};

export interface BgioServer {
  url: string;
  close(): void;
}

/** boardgame.io's server on a free loopback port, in this process (so this process' CPU counts it). */
export async function startBgioServer(): Promise<BgioServer> {
  const server = Server({ games: [PlaceGame as never], origins: ["*"] });
  const running = await server.run({ port: 0 });
  const http = running.appServer;
  // koa-socket-2 binds the request handler before the lobby routes exist (koa 2.16 composes the middleware
  // when the handler is made), so the lobby answers 404; re-bind it. Clients use the websocket transport
  // only, so socket.io needs no plain request handler of its own.
  http.removeAllListeners("request");
  const handle = server.app.callback();
  http.on("request", (req, res) => void handle(req, res));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      running.appServer.close();
      running.apiServer?.close();
    },
  };
}

async function post(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

interface ClientState {
  G: PlaceG;
  ctx: { currentPlayer: string; gameover?: unknown; turn: number };
  isActive: boolean;
}

/** Creates a match, joins both seats and plays it to the end; resolves when the board is full (or `stop`). */
export async function playBgioMatch(url: string, stats: PlayStats, running: () => boolean): Promise<boolean> {
  const { matchID } = await post(`${url}/games/place4x4/create`, { numPlayers: 2 });
  const credentials: string[] = [];
  for (const playerID of ["0", "1"])
    credentials.push((await post(`${url}/games/place4x4/${matchID}/join`, { playerID, playerName: `p${playerID}` })).playerCredentials);
  const clients = ["0", "1"].map((playerID, i) =>
    Client({
      game: PlaceGame as never,
      multiplayer: SocketIO({ server: url, socketOpts: { transports: ["websocket"] } }),
      matchID,
      playerID,
      credentials: credentials[i],
      debug: false,
    }),
  );
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 15_000);
      for (const client of clients) {
        let sentTurn = -1;
        let sentAt = 0;
        client.subscribe((raw) => {
          const s = raw as ClientState | null;
          if (!s) return;
          // The other seat's turn began: our move was applied by the server (the round trip ends here).
          if (sentTurn !== -1 && s.ctx.turn > sentTurn) {
            stats.acked++;
            stats.latencies?.push(nowMs() - sentAt);
            sentTurn = -1;
          }
          if (s.ctx.gameover) return (clearTimeout(timer), resolve(true));
          if (!running()) return (clearTimeout(timer), resolve(false));
          if (s.ctx.currentPlayer !== client.playerID || !s.isActive || sentTurn === s.ctx.turn) return;
          const cell = s.G.cells.findIndex((c) => c === null);
          if (cell < 0) return;
          sentTurn = s.ctx.turn;
          sentAt = nowMs();
          stats.sent++;
          client.moves.place(cell);
        });
        client.start();
      }
    });
  } finally {
    for (const c of clients) c.stop();
  }
}
