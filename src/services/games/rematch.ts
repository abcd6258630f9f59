/**
 * Rematches of finished friend and quick-match games, as lichess offers them: either seat offers, the other
 * seat accepts (a second offer from it) or declines, and an accepted rematch is a new game between the same
 * two profiles with the seats swapped and the same ruleset.
 *
 * The state is the finished game's stored `rematch` (GameRecord.rematch), changed only by compare-and-set on
 * its version (GamesPort.updateRematchIf), so every process sees the same offer whichever one a request
 * reaches: WebSocket seats reach it through the room (rooms/game-room.ts, told by rooms/rematch.ts), REST and MCP seats through
 * GamePlay. Each change is published on the game's presence channel (rematchChannel), and the finished
 * game's room, wherever it lives, tells its seats' clients.
 *
 * Accepting stores the new game's id first and creates the game afterwards, with that id: of two acceptances
 * racing on two processes one stores the id and the other reads it, and creating a game whose id is already
 * stored is success, so one game starts. Each seat plays the rematch with the token it played the finished
 * game with (the new game's seats take the old seats' token hashes, as a tournament entrant's token plays
 * every game of the tournament), so no token is kept anywhere to be handed out later (docs/DECISIONS.md).
 *
 * Not offered: house games (nobody to ask), tournament games (the pairing decides who meets next), hosted
 * games (their seats are bots announced by a challenge) and aborted games (nothing was played; the players
 * start a new game instead).
 */
import type { Presence } from "@colyseus/core";
import type { Seat } from "../../engine";
import { fail, type Outcome } from "../../shared/errors";
import { isDuplicateKey } from "../../store/duplicate";
import type { GameRecord, GameRematch, GamesPort } from "../../store/port";
import { seatOfToken } from "./record";
import type { SeatReservation } from "./room-access";
import { newGameId } from "../../shared/secrets";
import type { SeatClaim } from "./seats";
import { otherSeat } from "../../engine";

/** What a rematch needs of the service: the finished record, a new active game, a seat reservation, presence. */
export interface RematchDeps {
  store: Pick<GamesPort, "getGame" | "updateRematchIf">;
  /** Stores and opens an active game with the given id; rejects with a duplicate key when the id is taken. */
  createMatched(
    ruleset: GameRecord["ruleset"],
    seats: Record<Seat, SeatClaim>,
    fixed: { opponent: GameRecord["opponent"]; id: string; public: boolean },
  ): Promise<string>;
  reserveSeat(gameId: string, token: string): Promise<SeatReservation>;
  presence: Pick<Presence, "publish" | "subscribe" | "unsubscribe">;
}

/** Where one seat of the old game plays the rematch: the new game and its seat there (swapped). */
export interface RematchSeat {
  gameId: string;
  seat: Seat;
}

/** What a seat reads of a finished game's rematch (the REST seat view's `rematch`). */
export interface RematchView {
  offeredBy: Seat | null;
  gameId?: string;
}

/** What the finished game's rooms are told, on every process; never a token. */
export type RematchChange = { type: "offered"; by: Seat } | { type: "declined"; by: Seat } | { type: "started"; gameId: string };

/** The presence channel of a finished game's rematch changes. */
export const rematchChannel = (gameId: string): string => `rematch:${gameId}`;

/** How long an offer stands unanswered; a started rematch stays (its game exists, a second offer answers it). */
export const OFFER_TTL_MS = 15 * 60_000;
/** Compare-and-set rounds of one request: each lost round means another request changed the rematch meanwhile. */
const ATTEMPTS = 5;

/** Why a finished game offers no rematch, or null when it does. */
export function noRematch(record: GameRecord): string | null {
  if (record.status !== "finished") return "the game has not finished; a rematch is offered once it has";
  if (record.opponent !== "friend" && record.opponent !== "quick") return `a ${record.opponent} game offers no rematch`;
  if (record.tournamentId) return "a tournament game offers no rematch: the pairings decide who meets next";
  if (record.leagueId) return "a league game offers no rematch: the league's schedule decides who meets next";
  if (record.decidedBy === "aborted") return "an aborted game offers no rematch; start a new game";
  return null;
}

/** The seat whose offer stands now: none once started, declined or lapsed. */
function standingOffer(r: GameRematch | undefined, now: number): Seat | null {
  if (!r || r.gameId || r.offeredBy === null) return null;
  return Date.parse(r.at) + OFFER_TTL_MS > now ? r.offeredBy : null;
}

/** The rematch of a stored finished game as its seats see it (null: nobody offered, or the offer lapsed). */
export function rematchView(record: Pick<GameRecord, "rematch">, now = Date.now()): RematchView {
  const r = record.rematch;
  return r?.gameId ? { offeredBy: r.offeredBy, gameId: r.gameId } : { offeredBy: standingOffer(r, now) };
}

interface Follow {
  listeners: Set<(change: RematchChange) => void>;
  /** Set once this process's room was told the rematch started: its room need not be held any longer. */
  started: boolean;
  onMessage: (change: RematchChange) => void;
}

export class Rematches {
  /** The finished games whose rooms live in this process and follow their rematch, one subscription each. */
  private readonly follows = new Map<string, Follow>();

  constructor(private readonly deps: RematchDeps) {}

  /** Whether a game's room in this process may still see a rematch start (it stays open for it meanwhile). */
  open(gameId: string): boolean {
    return !this.follows.get(gameId)?.started;
  }

  /** Follows a game's rematch changes, made on any process; returns the unsubscription. */
  subscribe(gameId: string, listener: (change: RematchChange) => void): () => void {
    let f = this.follows.get(gameId);
    if (!f) {
      const follow: Follow = {
        listeners: new Set(),
        started: false,
        onMessage: (change) => {
          if (change.type === "started") follow.started = true;
          for (const l of follow.listeners) l(change);
        },
      };
      f = follow;
      this.follows.set(gameId, f);
      void Promise.resolve(this.deps.presence.subscribe(rematchChannel(gameId), f.onMessage)).catch(() => undefined);
    }
    const followed = f;
    followed.listeners.add(listener);
    return () => {
      followed.listeners.delete(listener);
      if (followed.listeners.size > 0 || this.follows.get(gameId) !== followed) return;
      this.follows.delete(gameId);
      void Promise.resolve(this.deps.presence.unsubscribe(rematchChannel(gameId), followed.onMessage)).catch(() => undefined);
    };
  }

  /**
   * A seat's offer, or its acceptance when the other seat's offer stands. Answers the rematch as it is now,
   * and, once it started, this seat's place in the new game (played with this seat's own token).
   */
  async offer(gameId: string, tokenHash: string | null): Promise<Outcome<RematchView & { started?: RematchSeat }>> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const checked = await this.seatOf(gameId, tokenHash);
      if (!checked.ok) return checked;
      const { seat, record } = checked.value;
      const r = record.rematch;
      const now = Date.now();
      if (r?.gameId) return this.started(record, r.gameId, seat, false);
      const standing = standingOffer(r, now);
      if (standing === seat) return { ok: true, value: rematchView(record, now) };
      // Nobody's offer stands: this seat offers. The other seat's does: this seat accepts, and the new game's
      // id is stored before the game is made, so whichever acceptance stores it is the one game there will be.
      const next: GameRematch =
        standing === null
          ? { version: (r?.version ?? 0) + 1, offeredBy: seat, at: new Date(now).toISOString() }
          : { version: r!.version + 1, offeredBy: standing, at: r!.at, gameId: newGameId() };
      if (!(await this.deps.store.updateRematchIf(gameId, r?.version, next))) continue; // changed meanwhile: read again
      if (next.gameId) return this.started({ ...record, rematch: next }, next.gameId, seat, true);
      this.publish(gameId, { type: "offered", by: seat });
      return { ok: true, value: { offeredBy: seat } };
    }
    return fail("unavailable", "the rematch kept changing while this request was answered; retry", { retryAfter: 1 });
  }

  /** A seat declines the other's offer (or takes back its own): the offer is gone, nobody is moved. */
  async decline(gameId: string, tokenHash: string | null): Promise<Outcome<RematchView>> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const checked = await this.seatOf(gameId, tokenHash);
      if (!checked.ok) return checked;
      const r = checked.value.record.rematch;
      const now = Date.now();
      if (r?.gameId) return fail("conflict", "the rematch has already started");
      if (standingOffer(r, now) === null) return { ok: true, value: { offeredBy: null } };
      if (!(await this.deps.store.updateRematchIf(gameId, r!.version, { version: r!.version + 1, offeredBy: null, at: new Date(now).toISOString() }))) continue;
      this.publish(gameId, { type: "declined", by: checked.value.seat });
      return { ok: true, value: { offeredBy: null } };
    }
    return fail("unavailable", "the rematch kept changing while this request was answered; retry", { retryAfter: 1 });
  }

  /**
   * The answer once the rematch's game id is stored: its game is made unless it exists (an acceptance on
   * another process, or one that failed half-way, may not have made it yet). Whoever makes it tells the rooms.
   */
  private async started(record: GameRecord, newId: string, seat: Seat, accepted: boolean): Promise<Outcome<RematchView & { started: RematchSeat }>> {
    // An acceptance that just stored the id reads nothing first: nobody can have made its game yet.
    const exists = !accepted && (await this.deps.store.getGame(newId)) !== null;
    if (!exists) {
      const made = await this.create(record, newId);
      if (!made.ok) return made;
    }
    return { ok: true, value: { ...rematchView(record), started: { gameId: newId, seat: otherSeat(seat) } } };
  }

  private async create(record: GameRecord, newId: string): Promise<Outcome<void>> {
    // Seats swapped: who sat at A sits at B, with the same profile (ratings continue) and the same token.
    const seatOfNew = (old: Seat): SeatClaim => {
      const s = record.seats[old]!;
      // Only friend and quick-match games offer a rematch, so neither seat is the house's.
      const kind = s.kind === "bot" ? "bot" : "human";
      return { playerId: s.playerId, name: s.name, kind, champion: s.champion, tokenHash: s.tokenHash! };
    };
    try {
      await this.deps.createMatched(
        record.ruleset,
        { A: seatOfNew("B"), B: seatOfNew("A") },
        { opponent: record.opponent, id: newId, public: record.public !== false },
      );
    } catch (e) {
      // Made by another request meanwhile: the same game, told of by that request.
      if (isDuplicateKey(e)) return { ok: true, value: undefined };
      // Stored but its room not opened: the game exists (its room opens when needed), so it started.
      if (!(await this.deps.store.getGame(newId).catch(() => null))) return fail("unavailable", "the rematch could not be created; retry", { retryAfter: 1 });
    }
    this.publish(record.id, { type: "started", gameId: newId });
    return { ok: true, value: undefined };
  }

  /** A seat's WebSocket seat reservation in the new game (undefined when it could not be made). */
  reserve(gameId: string, token: string): Promise<SeatReservation | undefined> {
    return this.deps.reserveSeat(gameId, token).catch(() => undefined);
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

  private publish(gameId: string, change: RematchChange) {
    void Promise.resolve(this.deps.presence.publish(rematchChannel(gameId), change)).catch(() => undefined);
  }
}
