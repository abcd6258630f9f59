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
 * The durable floor (`StockServer.start(port, { database })`): the same game on the same stock server, each
 * move stored durably before its mover is answered, as the game server stores and acknowledges a move. The
 * process opens the project's SQLite store on the given file with the server's settings (WAL, synchronous=FULL
 * as a fdatasync of the WAL after each commit, the writer thread and its group commit: src/store/sqlite/) and
 * puts a GroupCommit in front of it as the server does (src/server.ts). A room stores its game's record when
 * it is created (a game must exist before its moves can be stored, as a created game does in the game
 * server), then each accepted move is one write of the commit: the action, and the record's move count, score
 * and last move time (status and winner with the last move), fenced by the room's owner epoch. The move is
 * applied to the state and acknowledged only once the write is committed. What that floor costs beyond the
 * stock game is the price of durability alone; what the game server costs beyond it is everything else.
 *
 * Run as a child (forked with the parent's loader): it tells its parent its URL over IPC and answers
 * { type: "cpu" } with its CPU time in microseconds (user + system, every thread: the writer's, the
 * checkpointer's and the fsyncs' too), so the parent prices a window of play by the server's own CPU.
 */
import { fork, type ChildProcess } from "node:child_process";
import { Room, Server, type Client } from "@colyseus/core";
import { schema, t } from "@colyseus/schema";
import type { GroupCommit } from "../../src/store/group-commit";
import type { GameRecord, GameWrite } from "../../src/store/port";
import type { SqliteStore } from "../../src/store/sqlite";

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

/** Set in the stock process by StockServer.start's `patchOnChange`. */
const PATCH_ON_CHANGE = process.env.STOCK_PATCHES === "change";

/** A stock turn room: the seat to move names a square; its card goes there and the turn passes. */
export class StockTurnRoom extends Room<{ state: InstanceType<typeof StockState> }> {
  override state = new StockState();
  protected readonly hands: Record<StockSeat, string[]> = {
    A: Array.from({ length: STOCK_MOVES / 2 }, (_, i) => `A${i}`),
    B: Array.from({ length: STOCK_MOVES / 2 }, (_, i) => `B${i}`),
  };

  override onCreate(): void | Promise<void> {
    this.maxClients = 2;
    // --stock-patches change: no patch timer (Colyseus' patchRate set past any timer's reach, as the game
    // server's rooms do) and one patch after each move; by default Colyseus' own 20 patches a second.
    if (PATCH_ON_CHANGE) this.patchRate = 2 ** 31 - 1;
    this.onMessage("move", (client: Client, square: unknown) => void this.move(client, square));
  }

  override onJoin(client: Client) {
    const taken = this.clients.some((c) => c !== client && (c.userData as { seat?: StockSeat } | undefined)?.seat === "A");
    client.userData = { seat: taken ? "B" : "A" };
  }

  protected move(client: Client, square: unknown): void | Promise<void> {
    if (!this.legal(client, square)) return void client.send("refused", square);
    this.place(client, square);
  }

  protected seatOf(client: Client): StockSeat {
    return (client.userData as { seat: StockSeat }).seat;
  }

  /** Whether the client's seat may place on `square` now. */
  protected legal(client: Client, square: unknown): square is string {
    const s = this.state;
    return s.status === "active" && s.turn === this.seatOf(client) && typeof square === "string" && STOCK_SQUARES.includes(square) && !s.board.has(square);
  }

  /** Plays a legal move: the seat's next card onto `square`, the turn passed, the mover's hand sent to it. */
  protected place(client: Client, square: string): void {
    const seat = this.seatOf(client);
    const s = this.state;
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
    if (PATCH_ON_CHANGE) this.broadcastPatch();
  }
}

/** The durable floor's store, opened by the process's main() when it serves the durable floor. */
let floor: { store: SqliteStore; commits: GroupCommit } | null = null;

/** The owner epoch every floor game is created with and every one of its writes is fenced by. */
const FLOOR_EPOCH = 1;

/** A game record of a real game's size (two claimed seats, a seed commitment) for a floor room. */
function floorRecord(id: string): GameRecord {
  const at = new Date().toISOString();
  const seat = (s: StockSeat) => ({ playerId: `p_${s}_${id}`.padEnd(22, "x"), name: `Player ${s}`, kind: "human" as const, tokenHash: "f".repeat(64) });
  return {
    id,
    ruleset: "classic",
    opponent: "friend",
    public: true,
    turnSeconds: 120,
    seed: 1,
    salt: "s".repeat(32),
    commitment: "c".repeat(64),
    status: "active",
    seats: { A: seat("A"), B: seat("B") },
    moveCount: 0,
    score: { A: 0, B: 0 },
    winner: null,
    ownerEpoch: FLOOR_EPOCH,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The durable floor's room: the stock turn room whose game's record is stored at creation and whose every
 * accepted move is stored (one write of the group commit) before it is applied and acknowledged. A move that
 * arrives while the room's last one is being stored is refused (its seat waits for its acknowledgement).
 */
export class DurableTurnRoom extends StockTurnRoom {
  private storing = false;

  override async onCreate(): Promise<void> {
    await super.onCreate();
    await floor!.store.games.createGame(floorRecord(this.roomId));
  }

  protected override async move(client: Client, square: unknown): Promise<void> {
    if (this.storing || !this.legal(client, square)) return void client.send("refused", square);
    this.storing = true;
    try {
      const stored = await floor!.commits.submit(this.writeOf(client, square));
      if (stored !== "committed") return void client.send("refused", square);
      this.place(client, square);
    } catch {
      client.send("refused", square);
    } finally {
      this.storing = false;
    }
  }

  /** What the move stores: its action, and the record's fields it changes (with the last move, the result). */
  private writeOf(client: Client, square: string): GameWrite {
    const seat = this.seatOf(client);
    const s = this.state;
    const at = new Date().toISOString();
    const moveCount = s.moveCount + 1;
    const score = { A: s.scoreA + (seat === "A" ? 1 : 0), B: s.scoreB + (seat === "B" ? 1 : 0) };
    const last = moveCount === STOCK_MOVES;
    const result: Partial<GameRecord> = last ? { status: "finished", winner: score.A > score.B ? "A" : score.B > score.A ? "B" : "draw", finishedAt: at } : {};
    return {
      gameId: this.roomId,
      actions: [{ gameId: this.roomId, index: s.moveCount, action: { kind: "place", card: this.hands[seat][0], square, seat }, at }],
      patch: { moveCount, score, lastMoveAt: at, ...result },
      ownerEpoch: FLOOR_EPOCH,
    };
  }
}

/** The parent's handle on the stock server's process: its URL and its CPU time. */
export class StockServer {
  private constructor(
    private readonly proc: ChildProcess,
    readonly url: string,
  ) {}

  /**
   * With `database`, the durable floor on that SQLite file (created), its fsyncs spaced by `syncIntervalMs`
   * as the server's are (its COMMIT_WINDOW_MS); otherwise the stock game. With `patchOnChange`, its rooms
   * send a patch after each move and keep no patch timer (the game server's patch policy).
   */
  static async start(port: number, options: { database?: string; syncIntervalMs?: number; patchOnChange?: boolean } = {}): Promise<StockServer> {
    const execArgv = process.execArgv.filter((a) => a !== "--expose-gc");
    // STOCK_CPU_PROF_DIR=DIR: the stock (or floor) process writes V8's CPU profile of its whole run there.
    const profileDir = process.env.STOCK_CPU_PROF_DIR;
    if (profileDir) execArgv.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`);
    const env = {
      ...process.env,
      STOCK_PORT: String(port),
      ...(options.patchOnChange ? { STOCK_PATCHES: "change" } : {}),
      ...(options.database ? { STOCK_DATABASE: options.database, STOCK_SYNC_INTERVAL_MS: String(options.syncIntervalMs ?? 0) } : {}),
    };
    const proc = fork(__filename, [], { execArgv, env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
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

/**
 * The durable floor's store: the project's SQLite store with the game server's settings (synchronous=FULL,
 * its writer thread, its checkpointer) and the group commit the server puts in front of it. Loaded only in
 * the floor's process, so the stock game's process holds nothing of the project.
 */
async function openFloor(path: string, syncIntervalMs: number): Promise<NonNullable<typeof floor>> {
  const [{ SqliteStore }, { GroupCommit }] = await Promise.all([import("../../src/store/sqlite"), import("../../src/store/group-commit")]);
  const store = new SqliteStore({ path, synchronous: "FULL", syncIntervalMs });
  await store.init();
  // The server's window for SQLite: none (the writer thread groups what arrives during its commit).
  return { store, commits: new GroupCommit(store.games, { windowMs: 0 }) };
}

async function main() {
  const port = Number(process.env.STOCK_PORT);
  const database = process.env.STOCK_DATABASE;
  if (database) floor = await openFloor(database, Number(process.env.STOCK_SYNC_INTERVAL_MS ?? 0));
  const server = new Server({ greet: false, gracefullyShutdown: false });
  server.define(STOCK_ROOM, floor ? DurableTurnRoom : StockTurnRoom);
  await server.listen(port, "127.0.0.1");
  process.on("message", (m: { type?: string }) => {
    if (m?.type === "cpu") {
      const c = process.cpuUsage();
      process.send?.({ type: "cpu", us: c.user + c.system });
    } else if (m?.type === "exit") {
      // The floor's writer thread finishes what it was given and its file is closed before the exit.
      void (floor?.store.close() ?? Promise.resolve()).finally(() => process.exit(0));
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
