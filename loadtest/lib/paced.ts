/**
 * The capacity load: N active games with both seats on WebSocket, each seat moving every `seatPeriodMs`
 * (so each game every half of it), the games' moves spread evenly over the period. A game that ends is
 * replaced by a new one (set-up as in real play). Round trips are measured from the send to `moved`.
 */
import type { Client, Room } from "@colyseus/sdk";
import { joinSeat, nowMs, openFriendGame, pickMove, sleep, type HttpClient, type Seat } from "./common";

interface PacedGame { seats: Record<Seat, Room>; due: number; sentAt: number; slot: number; replacing: boolean; hands: Record<Seat, string[]> }

const LEAVE_WAIT_MS = 2000;

/**
 * Leaves a room, waiting at most LEAVE_WAIT_MS for the server's answer: a consented leave that crosses the
 * room's own closing (a finished game is released) may never be answered, and closing thousands of games
 * must not hang on one of them.
 */
async function leave(room: Room): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([room.leave(true), new Promise((r) => (timer = setTimeout(r, LEAVE_WAIT_MS)))]);
  } catch {
    /* already gone */
  } finally {
    clearTimeout(timer);
  }
}

export class PacedGames {
  private games: PacedGame[] = [];
  private timer?: NodeJS.Timeout;
  latencies: number[] = [];
  refused = 0;
  moves = 0;
  /** Finished games replaced by new ones (each a set-up: create, join, two WebSocket joins). */
  replaced = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly sdk: Client,
    private readonly seatPeriodMs: number,
    /** Seats connect with the seat reservations of their create and join answers instead of joinById. */
    private readonly reserveSeats = false,
  ) {}

  get size(): number {
    return this.games.length;
  }

  /**
   * Opens games (8 at a time) until there are `n`, spread over `rampMs` while the games already open keep
   * moving. A game lives about 16 moves (40 s at a move every 2.5 s): games opened together also end
   * together, and their replacements would arrive as one burst of set-ups every 40 s. Opened over a game's
   * lifetime, the games end, and are replaced, at an even rate, as N games in steady play would be.
   */
  async grow(n: number, rampMs = 0): Promise<void> {
    const adding = n - this.games.length;
    const started = nowMs();
    const period = this.seatPeriodMs / 2;
    for (let opened = 0; this.games.length < n; ) {
      const batch = Math.min(8, n - this.games.length);
      const wait = started + (rampMs * opened) / adding - nowMs();
      if (wait > 0) await sleep(wait);
      const fresh = await Promise.all(Array.from({ length: batch }, (_, i) => this.open(this.games.length + i)));
      // Each game's first move falls anywhere in the period, so the moves stay spread evenly.
      for (const g of fresh) g.due = nowMs() + Math.random() * period;
      this.games.push(...fresh);
      opened += batch;
    }
  }

  start(): void {
    this.stopTicking();
    this.timer = setInterval(() => this.tick(), 5);
  }

  stopTicking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Resigns every game (so the server releases them) and closes every connection. */
  async close(): Promise<void> {
    this.stopTicking();
    for (const g of this.games) g.seats.A.send("resign");
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all(this.games.flatMap((g) => [g.seats.A, g.seats.B]).map(leave));
    this.games = [];
  }

  /** A new game for `slot`, its seats joined; filled into `game` when given (a replacement keeps its slot). */
  private async open(slot: number, into?: PacedGame): Promise<PacedGame> {
    const f = await openFriendGame(this.http, `cap${slot}`, undefined, this.reserveSeats);
    const [A, B] = await Promise.all((["A", "B"] as const).map((seat) => joinSeat(this.sdk, f, seat)));
    const game: PacedGame = into ?? { seats: { A, B }, due: Infinity, sentAt: 0, slot, replacing: false, hands: { A: [], B: [] } };
    game.seats = { A, B };
    game.hands = { A: [], B: [] };
    for (const [seat, room] of [["A", A], ["B", B]] as const) {
      // A seat's hand comes as messages only (the state holds none).
      room.onMessage("hand", (m: { cards: Array<{ id: string }> }) => (game.hands[seat] = m.cards.map((c) => c.id)));
      room.onMessage("moved", (m: { hand: { cards: Array<{ id: string }> } }) => {
        game.hands[seat] = m.hand.cards.map((c) => c.id);
        this.moves++;
        this.latencies.push(nowMs() - game.sentAt);
      });
      room.onMessage("refused", () => this.refused++);
    }
    return game;
  }

  private tick(): void {
    const now = nowMs();
    const period = this.seatPeriodMs / 2;
    for (const g of this.games) {
      if (g.replacing || g.due > now) continue;
      g.due += period;
      const s = g.seats.A.state as { status?: string; turn?: string; board?: Map<string, unknown> } | undefined;
      if (s?.status === "finished") {
        void this.replace(g);
        continue;
      }
      if (s?.status !== "active" || (s.turn !== "A" && s.turn !== "B")) continue;
      const room = g.seats[s.turn];
      const hand = g.hands[s.turn];
      const occupied: string[] = [];
      s.board?.forEach((_v, square) => occupied.push(square));
      const move = pickMove(hand, occupied);
      if (!move) continue;
      g.sentAt = nowMs();
      room.send("move", move);
    }
  }

  private async replace(g: PacedGame): Promise<void> {
    g.replacing = true;
    await Promise.all([g.seats.A, g.seats.B].map(leave));
    try {
      await this.open(g.slot, g);
      this.replaced++;
    } catch {
      // the next tick finds the old (finished) seats again and retries
    } finally {
      g.replacing = false;
    }
  }
}
