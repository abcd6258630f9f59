/**
 * Rematches of finished friend and quick-match games, as lichess offers them: either seat offers, the other
 * seat accepts (a second offer from it) or declines, and an accepted rematch is a new game between the same
 * two profiles with the seats swapped and the same ruleset. The state is kept per process, beside the finished
 * game's room, for as long as one of its seats may still ask (ENTRY_TTL_MS): WebSocket seats reach it through
 * the room (rooms/game-room.ts), REST and MCP seats through GameService, and both see the same offer.
 *
 * Not offered: house games (nobody to ask), tournament games (the pairing decides who meets next), hosted
 * games (their seats are bots announced by a challenge) and aborted games (nothing was played; the players
 * start a new game instead).
 */
import type { Client } from "@colyseus/core";
import type { Seat } from "../src/game";
import { fail, type Outcome } from "../src/errors";
import { seatOfToken } from "../src/games/record";
import { newPlayerToken, sha256Hex } from "../src/games/secrets";
import type { SeatReservation } from "../src/games/room-access";
import type { GameRecord, GamesPort } from "../src/store/port";
import type { NewSeat } from "../src/games/service";
import { send } from "./messages";

/** What a rematch needs of the service: the finished record, a new active game, a seat reservation. */
export interface RematchDeps {
  store: Pick<GamesPort, "getGame">;
  createMatched(ruleset: GameRecord["ruleset"], seats: Record<Seat, NewSeat & { tokenHash: string }>, fixed: { opponent: GameRecord["opponent"] }): Promise<string>;
  reserveSeat(gameId: string, token: string): Promise<SeatReservation>;
}

/** The new game as one seat of the old game sees it: its seat there (swapped) and its own token. */
export interface RematchSeat { gameId: string; seat: Seat; playerToken: string }

/** What a seat reads of a finished game's rematch (the REST seat view's `rematch`). */
export interface RematchView { offeredBy: Seat | null; gameId?: string }

export type RematchChange =
  | { type: "offered"; by: Seat }
  | { type: "declined"; by: Seat }
  | { type: "started"; seats: Record<Seat, RematchSeat> };

interface Entry {
  offeredBy: Seat | null;
  /** Once accepted: each old seat's place in the new game. Its token is kept until this entry expires, so a seat asking over REST after the start is answered with it. */
  started?: Record<Seat, RematchSeat>;
  /** Set while the new game is being created: a third request waits for the same answer. */
  starting?: Promise<Outcome<Record<Seat, RematchSeat>>>;
  expires: number;
  listeners: Set<(change: RematchChange) => void>;
}

/** How long an offer, a decline or a started rematch is remembered after the game's last rematch request. */
const ENTRY_TTL_MS = 15 * 60_000;
const MAX_ENTRIES = 10_000;

/** Why a finished game offers no rematch, or null when it does. */
export function noRematch(record: GameRecord): string | null {
  if (record.status !== "finished") return "the game has not finished; a rematch is offered once it has";
  if (record.opponent !== "friend" && record.opponent !== "quick") return `a ${record.opponent} game offers no rematch`;
  if (record.tournamentId) return "a tournament game offers no rematch: the pairings decide who meets next";
  if (record.leagueId) return "a league game offers no rematch: the league's schedule decides who meets next";
  if (record.decidedBy === "aborted") return "an aborted game offers no rematch; start a new game";
  return null;
}

export class Rematches {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly deps: RematchDeps) {}

  /** The rematch as the seats of a finished game see it (null: nobody offered yet). */
  view(gameId: string): RematchView {
    const e = this.live(gameId);
    return e?.started ? { offeredBy: e.offeredBy, gameId: e.started.A.gameId } : { offeredBy: e?.offeredBy ?? null };
  }

  /** Whether a game may still be offered a rematch by its seats (the room stays open for it meanwhile). */
  open(gameId: string): boolean {
    return !this.live(gameId)?.started;
  }

  /** Follows a game's rematch; returns the unsubscription. */
  subscribe(gameId: string, listener: (change: RematchChange) => void): () => void {
    const e = this.entry(gameId);
    e.listeners.add(listener);
    return () => e.listeners.delete(listener);
  }

  /**
   * A seat's offer, or its acceptance when the other seat offered first. Answers the rematch as it is now,
   * and, once it started, this seat's place in the new game.
   */
  async offer(gameId: string, tokenHash: string | null): Promise<Outcome<RematchView & { started?: RematchSeat }>> {
    const checked = await this.seatOf(gameId, tokenHash);
    if (!checked.ok) return checked;
    const { seat, record } = checked.value;
    const e = this.entry(gameId);
    if (e.started) return { ok: true, value: { ...this.view(gameId), started: e.started[seat] } };
    if (e.offeredBy === null || e.offeredBy === seat) {
      if (e.offeredBy === null) {
        e.offeredBy = seat;
        this.tell(e, { type: "offered", by: seat });
      }
      return { ok: true, value: this.view(gameId) };
    }
    e.starting ??= this.start(record, e);
    const started = await e.starting;
    if (!started.ok) return started;
    return { ok: true, value: { ...this.view(gameId), started: started.value[seat] } };
  }

  /** A seat declines the other's offer (or takes back its own): the offer is gone, nobody is moved. */
  async decline(gameId: string, tokenHash: string | null): Promise<Outcome<RematchView>> {
    const checked = await this.seatOf(gameId, tokenHash);
    if (!checked.ok) return checked;
    const e = this.entry(gameId);
    if (e.started || e.starting) return fail("conflict", "the rematch has already started");
    if (e.offeredBy !== null) {
      e.offeredBy = null;
      this.tell(e, { type: "declined", by: checked.value.seat });
    }
    return { ok: true, value: this.view(gameId) };
  }

  private async start(record: GameRecord, e: Entry): Promise<Outcome<Record<Seat, RematchSeat>>> {
    const tokens = { A: newPlayerToken(), B: newPlayerToken() };
    // Seats swapped: who sat at A sits at B. The profiles are the same, so ratings continue on them.
    const seatOfNew = (old: Seat): NewSeat & { tokenHash: string } => {
      const s = record.seats[old]!;
      // Only friend and quick-match games offer a rematch, so neither seat is the house's.
      const kind = s.kind === "bot" ? "bot" : "human";
      return { playerId: s.playerId, name: s.name, kind, champion: s.champion, tokenHash: sha256Hex(tokens[old]) };
    };
    try {
      const id = await this.deps.createMatched(record.ruleset, { A: seatOfNew("B"), B: seatOfNew("A") }, { opponent: record.opponent });
      const seats = {
        A: { gameId: id, seat: "B" as Seat, playerToken: tokens.A },
        B: { gameId: id, seat: "A" as Seat, playerToken: tokens.B },
      };
      e.started = seats;
      e.starting = undefined;
      this.tell(e, { type: "started", seats });
      return { ok: true, value: seats };
    } catch {
      e.starting = undefined;
      return fail("unavailable", "the rematch could not be created; retry");
    }
  }

  /** A seat's WebSocket seat reservation in the new game (undefined when it could not be made). */
  reserve(seat: RematchSeat): Promise<SeatReservation | undefined> {
    return this.deps.reserveSeat(seat.gameId, seat.playerToken).catch(() => undefined);
  }

  private async seatOf(gameId: string, tokenHash: string | null): Promise<Outcome<{ seat: Seat; record: GameRecord }>> {
    const record = await this.deps.store.getGame(gameId);
    if (!record) return fail("not_found", `no game with id ${gameId}`);
    if (!tokenHash) return fail("unauthorized", "spectators cannot offer or answer a rematch; only the game's seats can");
    const seat = seatOfToken(record, tokenHash);
    if (!seat) return fail("unauthorized", "wrong player token for this game");
    const why = noRematch(record);
    if (why) return fail(record.status !== "finished" ? "game_not_finished" : "forbidden", why);
    return { ok: true, value: { seat, record } };
  }

  private tell(e: Entry, change: RematchChange) {
    e.expires = Date.now() + ENTRY_TTL_MS;
    for (const listener of e.listeners) listener(change);
  }

  private live(gameId: string): Entry | undefined {
    const e = this.entries.get(gameId);
    if (e && e.expires < Date.now() && e.listeners.size === 0) {
      this.entries.delete(gameId);
      return undefined;
    }
    return e;
  }

  private entry(gameId: string): Entry {
    let e = this.live(gameId);
    if (!e) {
      // Oldest first: a Map keeps insertion order; one with listeners (an open room) is kept.
      if (this.entries.size >= MAX_ENTRIES) {
        for (const [id, old] of this.entries) if (old.listeners.size === 0) { this.entries.delete(id); break; }
      }
      e = { offeredBy: null, expires: Date.now() + ENTRY_TTL_MS, listeners: new Set() };
      this.entries.set(gameId, e);
    }
    return e;
  }
}

/**
 * A finished game's room tells its seats' clients of its rematch: the offer and a decline to every seat's
 * client, the start to each seat's own clients only (its token), each with its own seat reservation.
 */
export function followRematch(rematches: Rematches, gameId: string, clients: () => readonly Client[]): () => void {
  const seatOf = (c: Client): Seat | null => (c.userData as { seat?: Seat | null } | undefined)?.seat ?? null;
  return rematches.subscribe(gameId, (change) => {
    const seated = clients().filter((c) => seatOf(c) !== null); // spectators are not part of a rematch
    if (change.type !== "started") {
      for (const client of seated) send(client, change.type === "offered" ? { type: "rematchOffered", by: change.by } : { type: "rematchDeclined", by: change.by });
      return;
    }
    // Every client's reservation first, then every message in one go: a client that moves on to the new game
    // at once closes this room, which must not happen before the other seat is told.
    void Promise.all(seated.map((c) => rematches.reserve(change.seats[seatOf(c)!]))).then((reservations) =>
      seated.forEach((client, i) => {
        const seatReservation = reservations[i];
        send(client, { type: "rematchStarted", ...change.seats[seatOf(client)!], ...(seatReservation ? { seatReservation } : {}) });
      }),
    );
  });
}
