/**
 * The engine's own floor: a turn game on a stock Colyseus server, in a process of its own. `new Server()`
 * with its default transport (@colyseus/ws-transport), local driver and presence, no HTTP app and none of
 * this project's middleware, cork, patch policy or handshake: what a game costs on the engine underneath
 * the game server, measured in the same run as the game (npm run bench:room).
 *
 * The turn room is played as the game phase plays a game: created through the matchmaker, its second seat
 * joined by id, 16 alternating moves into a flat schema state (board and owner maps keyed by square, the
 * turn, the scores, the last move), each acknowledged to its mover with a `hand` message (its cards left and
 * the squares it may play), patches at Colyseus' default rate; both seats leave and the room disposes.
 *
 * Run as a child (forked with the parent's loader): it tells its parent its URL over IPC and answers
 * { type: "cpu" } with its CPU time in microseconds (user + system, every thread), so the parent prices a
 * window of play by the stock server's own CPU.
 */
import { fork, type ChildProcess } from "node:child_process";
import { Room, Server, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";

export const STOCK_ROOM = "turn";
export const STOCK_SQUARES = ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4"];
/** Moves in a stock game: every square filled, as in the game's 4x4 board. */
export const STOCK_MOVES = STOCK_SQUARES.length;

const StockState = schema(
  {
    status: t.string().default("active"),
    turn: t.string().default("A"),
    moveCount: t.uint8().default(0),
    lastMove: t.string().default(""),
    scoreA: t.uint8().default(0),
    scoreB: t.uint8().default(0),
    board: t.map("string"),
    owners: t.map("string"),
  },
  "StockState",
);

type StockSeat = "A" | "B";

/** A stock turn room: the seat to move names a square; its card goes there and the turn passes. */
export class StockTurnRoom extends Room<{ state: InstanceType<typeof StockState> }> {
  override state = new StockState();
  private readonly hands: Record<StockSeat, string[]> = {
    A: Array.from({ length: STOCK_MOVES / 2 }, (_, i) => `A${i}`),
    B: Array.from({ length: STOCK_MOVES / 2 }, (_, i) => `B${i}`),
  };

  override onCreate() {
    this.maxClients = 2;
    this.onMessage("move", (client: Client, square: unknown) => {
      const seat = (client.userData as { seat: StockSeat }).seat;
      const s = this.state;
      if (s.status !== "active" || s.turn !== seat || typeof square !== "string" || !STOCK_SQUARES.includes(square) || s.board.has(square)) {
        client.send("refused", square);
        return;
      }
      const card = this.hands[seat].shift()!;
      s.board.set(square, card);
      s.owners.set(square, seat);
      s.lastMove = `${card}@${square}`;
      s.moveCount++;
      if (seat === "A") s.scoreA++;
      else s.scoreB++;
      s.turn = seat === "A" ? "B" : "A";
      if (s.moveCount === STOCK_MOVES) s.status = "finished";
      client.send("hand", { cards: this.hands[seat], legal: [] });
    });
  }

  override onJoin(client: Client) {
    const taken = this.clients.some((c) => c !== client && (c.userData as { seat?: StockSeat } | undefined)?.seat === "A");
    client.userData = { seat: taken ? "B" : "A" };
  }
}

/** The parent's handle on the stock server's process: its URL and its CPU time. */
export class StockServer {
  private constructor(
    private readonly proc: ChildProcess,
    readonly url: string,
  ) {}

  static async start(port: number): Promise<StockServer> {
    const execArgv = process.execArgv.filter((a) => a !== "--expose-gc");
    const proc = fork(__filename, [], { execArgv, env: { ...process.env, STOCK_PORT: String(port) }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const url = await new Promise<string>((resolve, reject) => {
      proc.once("exit", (code) => reject(new Error(`the stock Colyseus server exited (${code}) before listening`)));
      proc.on("message", (m: { type?: string; url?: string }) => m.type === "ready" && resolve(m.url!));
    });
    return new StockServer(proc, url);
  }

  /** The stock server's CPU time so far, in microseconds (every thread). */
  cpuUs(): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the stock Colyseus server did not report its CPU")), 10_000);
      const on = (m: { type?: string; us?: number }) => {
        if (m.type !== "cpu") return;
        clearTimeout(timer);
        this.proc.off("message", on);
        resolve(m.us!);
      };
      this.proc.on("message", on);
      this.proc.send({ type: "cpu" });
    });
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const gone = new Promise<void>((r) => this.proc.once("exit", () => r()));
    this.proc.send({ type: "exit" });
    const t = setTimeout(() => this.proc.kill("SIGKILL"), 3000);
    await gone;
    clearTimeout(t);
  }
}

async function main() {
  const port = Number(process.env.STOCK_PORT);
  const server = new Server({ greet: false, gracefullyShutdown: false });
  server.define(STOCK_ROOM, StockTurnRoom);
  await server.listen(port, "127.0.0.1");
  process.on("message", (m: { type?: string }) => {
    if (m?.type === "cpu") {
      const c = process.cpuUsage();
      process.send?.({ type: "cpu", us: c.user + c.system });
    } else if (m?.type === "exit") {
      process.exit(0);
    }
  });
  // A parent that dies without "exit" must not leave a server running behind.
  process.on("disconnect", () => process.exit(0));
  process.send?.({ type: "ready", url: `http://127.0.0.1:${port}` });
}

if (process.env.STOCK_PORT) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
