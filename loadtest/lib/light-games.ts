/**
 * The capacity load of one thread: N active games, both seats on raw Colyseus sockets (wire.ts), each seat
 * moving once every `seatPeriodMs` (a game every half of it), the games' moves spread evenly over that
 * period. What a game is, how it is opened and how its seats play is its table (LightTable): this server's
 * game (GAME_TABLE) or the stock turn game of the stock server and the durable floor (STOCK_TABLE,
 * loadtest/lib/stock-colyseus.ts), so that both are paced by the same clock. A game whose board is full is
 * left and replaced by a new one, opened as in real play, in the same place on the clock.
 *
 * The clock is a wheel of SLOT_MS slots over one period: each game sits in one slot and is due once a period,
 * so a tick touches only the games due in it, whatever N is. A game due while its mover has no legal move
 * yet (its `hand` is on its way) moves as soon as it arrives; a slot that comes round while the game is still
 * due (the server is that far behind) is not added to it: the offered load never exceeds the pace.
 * Round trips are measured from a move's send to its `moved`.
 */
import { CELLS } from "../../src/engine/board";
import { nowMs, openFriendGame, sleep, type HttpClient, type Seat } from "./common";
import { STOCK_MOVES, STOCK_ROOM, STOCK_SQUARES } from "./stock-colyseus";
import { WireSeat, type Reservation } from "./wire";

interface LightSeat {
  wire: WireSeat | null;
  /** The moves this seat may play now, as its table last told it (empty while it is not its turn). */
  legal: string[];
}
export interface LightGame {
  seats: Record<Seat, LightSeat>;
  /** Moves acknowledged in this game. */
  moves: number;
  slot: number;
  /** The game's move is due (its slot came) and not yet sent. */
  due: boolean;
  /** A move was sent and its `moved` (or `refused`) has not come back. */
  inflight: boolean;
  sentAt: number;
  /** Being left and replaced (or opened): nothing is sent meanwhile. */
  replacing: boolean;
}

/** What a room message to a seat means to the pacing: its move acknowledged, refused, or the seat's turn. */
export type Reading = { kind: "moved"; over: boolean } | { kind: "refused"; why: string } | { kind: "turn" } | null;

/** A kind of game as the light generator plays it: how it is opened, what a seat sends, what it reads. */
export interface LightTable {
  /** Opens a game and returns its two seats, joined. */
  open(http: HttpClient, wsBase: string, name: string): Promise<Record<Seat, WireSeat>>;
  /** The due move of the seat whose turn it is, or null while no seat knows it may move. */
  move(g: LightGame): { seat: Seat; type: string; payload: unknown } | null;
  /** Reads a room message to `seat`, updating what the seat may play. */
  read(g: LightGame, seat: Seat, type: string | number, payload: unknown): Reading;
  /** The message that ends a game at once when the generator closes, if the game has one (else its seats just leave). */
  resign: string | null;
}

/** What a seat of this server's game reads of the room's direct messages (rooms/messages.ts holds the whole contract). */
type SeatMessage =
  { type: "hand"; legal: string[] } | { type: "moved"; n: number; hand?: { legal: string[] } } | { type: "refused"; code: string; detail: string };

/**
 * This server's game: a friend game created and joined over REST, each answer carrying its seat's
 * reservation. A seat plays from its own messages only, never from the schema state: a random entry of the
 * `legal` list of its last `hand` (on its join, whenever its turn begins) or of the hand inside its last `moved`.
 */
export const GAME_TABLE: LightTable = {
  async open(http, wsBase, name) {
    const f = await openFriendGame(http, name, undefined, true);
    const [A, B] = await Promise.all((["A", "B"] as const).map((s) => WireSeat.connect(wsBase, f.reservations![s] as Reservation)));
    return { A, B };
  },
  move(g) {
    const seat = g.seats.A.legal.length > 0 ? "A" : g.seats.B.legal.length > 0 ? "B" : null;
    if (!seat) return null;
    const legal = g.seats[seat].legal;
    return { seat, type: "move", payload: { move: legal[Math.floor(Math.random() * legal.length)] } };
  },
  read(g, seat, type, payload) {
    const m = { ...(payload as object), type } as SeatMessage;
    switch (m.type) {
      case "hand":
        g.seats[seat].legal = m.legal ?? [];
        return { kind: "turn" };
      case "moved":
        g.seats[seat].legal = m.hand?.legal ?? [];
        return { kind: "moved", over: m.n >= CELLS };
      case "refused":
        return { kind: "refused", why: `${m.code}: ${m.detail}` };
    }
    return null;
  },
  resign: "resign",
};

/**
 * The stock turn game (of the stock server or the durable floor), opened through Colyseus' own matchmaking
 * route (create, then join by id), its seats joined one after the other: the stock room seats its first
 * joiner as A, who moves first. The seat to move and its square follow from the move count; the mover's
 * `hand` acknowledges its move.
 */
export const STOCK_TABLE: LightTable = {
  async open(http, wsBase) {
    const created = (await http.json("POST", `/matchmake/create/${STOCK_ROOM}`, { body: {} })) as Reservation;
    const joined = (await http.json("POST", `/matchmake/joinById/${created.roomId}`, { body: {} })) as Reservation;
    const A = await WireSeat.connect(wsBase, created);
    try {
      return { A, B: await WireSeat.connect(wsBase, joined) };
    } catch (e) {
      await A.leave();
      throw e;
    }
  },
  move(g) {
    if (g.moves >= STOCK_MOVES) return null;
    return { seat: g.moves % 2 === 0 ? "A" : "B", type: "move", payload: STOCK_SQUARES[g.moves] };
  },
  read(g, _seat, type, payload) {
    // Read before the count is raised: the acknowledged move is the (g.moves + 1)th.
    if (type === "hand") return { kind: "moved", over: g.moves + 1 >= STOCK_MOVES };
    if (type === "refused") return { kind: "refused", why: `square ${String(payload)}` };
    return null;
  },
  resign: null,
};

const SLOT_MS = 10;
/** How long a finished or failed game's place waits before another set-up is tried after a failure. */
const RETRY_MS = 1000;

export interface LightCounters {
  moves: number;
  refused: number;
  replaced: number;
  /** Set-ups that failed (REST or WebSocket), each retried. */
  errors: number;
  /** Games whose socket the server closed mid-game (each replaced). */
  dropped: number;
  /** The first few failures and refusals, for the report. */
  samples: string[];
}

export class LightGames {
  private games: LightGame[] = [];
  private wheel: LightGame[][];
  private timer?: NodeJS.Timeout;
  private nextSlot = 0;
  private startedAt = 0;
  private closing = false;
  latencies: number[] = [];
  readonly counters: LightCounters = { moves: 0, refused: 0, replaced: 0, errors: 0, dropped: 0, samples: [] };

  constructor(
    private readonly http: HttpClient,
    /** The server's ws:// origin. */
    private readonly wsBase: string,
    seatPeriodMs = 5000,
    private readonly name = "light",
    private readonly table: LightTable = GAME_TABLE,
  ) {
    this.wheel = Array.from({ length: Math.max(1, Math.round(seatPeriodMs / 2 / SLOT_MS)) }, () => []);
  }

  get size(): number {
    return this.games.length;
  }

  /**
   * Opens games (8 at a time) until there are `n`, spread over `rampMs` while those already open keep moving:
   * a game lives 16 moves (40 s at the default pace), and games opened together would also end, and be
   * replaced, together; opened over a game's lifetime they end at an even rate, as in steady play.
   */
  async grow(n: number, rampMs = 0): Promise<void> {
    this.start();
    const adding = n - this.games.length;
    const started = nowMs();
    for (let opened = 0; this.games.length < n && !this.closing;) {
      const batch = Math.min(8, n - this.games.length);
      const wait = started + (rampMs * opened) / adding - nowMs();
      if (wait > 0) await sleep(wait);
      const fresh = Array.from({ length: batch }, () => this.place());
      this.games.push(...fresh);
      await Promise.all(fresh.map((g) => this.open(g)));
      opened += batch;
    }
  }

  /** Resigns every game (so the server finishes and releases it) and closes every socket. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    const resign = this.table.resign;
    if (resign) {
      for (const g of this.games) (g.seats.A.wire ?? g.seats.B.wire)?.send(resign);
      await sleep(500);
    }
    for (let i = 0; i < this.games.length; i += 200) {
      await Promise.all(
        this.games
          .slice(i, i + 200)
          .flatMap((g) => [g.seats.A.wire, g.seats.B.wire])
          .map((w) => w?.leave() ?? Promise.resolve()),
      );
    }
    this.games = [];
    this.wheel.forEach((s) => (s.length = 0));
  }

  /** A new game's place on the clock: a random slot, so that the moves of N games spread evenly. */
  private place(): LightGame {
    const g: LightGame = {
      seats: { A: { wire: null, legal: [] }, B: { wire: null, legal: [] } },
      moves: 0,
      slot: Math.floor(Math.random() * this.wheel.length),
      due: false,
      inflight: false,
      sentAt: 0,
      replacing: true,
    };
    this.wheel[g.slot].push(g);
    return g;
  }

  private start(): void {
    if (this.timer) return;
    this.startedAt = nowMs();
    this.nextSlot = 0;
    this.timer = setInterval(() => this.tick(), SLOT_MS);
  }

  /** Every slot whose time has come since the last tick (a late tick catches up, at most one period). */
  private tick(): void {
    const upTo = Math.floor((nowMs() - this.startedAt) / SLOT_MS);
    if (upTo - this.nextSlot > this.wheel.length) this.nextSlot = upTo - this.wheel.length;
    for (; this.nextSlot <= upTo; this.nextSlot++) {
      for (const g of this.wheel[this.nextSlot % this.wheel.length]) {
        if (g.replacing) continue;
        g.due = true;
        this.play(g);
      }
    }
  }

  /** Sends the game's due move, from the seat whose turn its table says it is. */
  private play(g: LightGame): void {
    if (!g.due || g.inflight || g.replacing) return;
    const move = this.table.move(g);
    const wire = move && g.seats[move.seat].wire;
    if (!move || !wire) return;
    g.due = false;
    g.inflight = true;
    g.sentAt = nowMs();
    wire.send(move.type, move.payload);
  }

  private onMessage(g: LightGame, seat: Seat, type: string | number, payload: unknown): void {
    const r = this.table.read(g, seat, type, payload);
    if (!r) return; // a message the pacing does not read
    switch (r.kind) {
      case "turn":
        return this.play(g);
      case "moved":
        this.latencies.push(nowMs() - g.sentAt);
        this.counters.moves++;
        g.moves++;
        g.inflight = false;
        if (r.over) void this.replace(g);
        else this.play(g);
        return;
      case "refused":
        this.counters.refused++;
        this.sample(`refused ${r.why}`);
        // Tried again at the game's next slot, with whatever hand the seat holds by then.
        g.inflight = false;
        return;
    }
  }

  /** Opens a game of the table into `g` (two sockets, joined). */
  private async open(g: LightGame): Promise<void> {
    g.replacing = true;
    while (!this.closing) {
      try {
        const wires = await this.table.open(this.http, this.wsBase, this.name);
        g.moves = 0;
        for (const s of ["A", "B"] as const) {
          const seat: LightSeat = { wire: wires[s], legal: [] };
          g.seats[s] = seat;
          g.due = false;
          g.inflight = false;
          seat.wire!.listen((type, payload) => this.onMessage(g, s, type, payload));
          // A socket the server closes mid-game (not our own leave) leaves the game unplayable: replaced.
          seat.wire!.onClose = () => {
            if (g.seats[s] !== seat || g.replacing || this.closing) return;
            this.counters.dropped++;
            this.sample(`seat ${s} dropped`);
            void this.replace(g);
          };
        }
        g.due = false;
        g.inflight = false;
        g.replacing = false;
        if (this.closing) await Promise.all([wires.A.leave(), wires.B.leave()]);
        return;
      } catch (e) {
        this.counters.errors++;
        this.sample(`set-up: ${e instanceof Error ? e.message : String(e)}`);
        await sleep(RETRY_MS);
      }
    }
  }

  /** Leaves a finished game and opens a new one in its place. */
  private async replace(g: LightGame): Promise<void> {
    g.replacing = true;
    const old = [g.seats.A.wire, g.seats.B.wire];
    g.seats.A = { wire: null, legal: [] };
    g.seats.B = { wire: null, legal: [] };
    await Promise.all(old.map((w) => w?.leave() ?? Promise.resolve()));
    await this.open(g);
    if (!this.closing) this.counters.replaced++;
  }

  private sample(s: string): void {
    if (this.counters.samples.length < 5) this.counters.samples.push(s);
  }
}
