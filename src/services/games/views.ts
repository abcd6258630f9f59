/**
 * Read models built from a GameContext: the sync body (seat or spectator), the public game record, and
 * the replay. Pure functions: the room uses them for live games, the facade for finished games.
 */
import {
  boardCells,
  buildReplay,
  decisionOf,
  legalMovesFor,
  resultFor,
  seatView,
  spectatorView,
  type Decision,
  type DecidedBy,
  type Replay,
  type Seat,
  type SeatResult,
  type SeatView,
  type ShownMove,
  type Winner,
} from "../../engine";
import type { GameRecord, SeatRecord } from "../../store/port";
import { isBotId } from "../../shared/secrets";
import { fail, type Outcome } from "../../shared/errors";
import { factsOf, placementDetails, type GameContext } from "./context";
import { seatOfToken } from "./record";

/** JSON links (`replay`, `review`) beside the pages a person opens (`watch`, `play`, `replayPage`, `reviewPage`). */
export interface Links {
  watch: string;
  play: string;
  replay: string;
  review: string;
  replayPage: string;
  reviewPage: string;
}

export function linksFor(baseUrl: string, gameId: string): Links {
  return {
    watch: `${baseUrl}/watch/${gameId}`,
    play: `${baseUrl}/play/${gameId}`,
    replay: `${baseUrl}/api/v1/games/${gameId}/replay`,
    review: `${baseUrl}/api/v1/games/${gameId}/review`,
    replayPage: `${baseUrl}/replay/${gameId}`,
    reviewPage: `${baseUrl}/review/${gameId}`,
  };
}

/** A seat as anyone may see it; the champion is the one in play (chosen, or drawn by the seed). */
export function publicSeat(s: SeatRecord | undefined, champion?: string) {
  if (!s || (!s.tokenHash && s.kind !== "house")) return null;
  // Seats carry their profile's kind; a game stored before they did has no profile at hand, so its BOT- id says.
  return { id: s.playerId, name: s.name, kind: isBotId(s.playerId) ? ("bot" as const) : s.kind, champion: champion ?? s.champion ?? null };
}

/** Both seats of a game as anyone may see them. */
export function publicPlayers(ctx: GameContext) {
  const { seats } = ctx.record;
  return { A: publicSeat(seats.A, ctx.engine?.champions.A), B: publicSeat(seats.B, ctx.engine?.champions.B) };
}

function turnDeadline(record: GameRecord, ctx: GameContext): string | null {
  if (factsOf(ctx).status !== "active" || !ctx.engine) return null;
  const from = record.lastMoveAt ?? record.startedAt;
  return from ? new Date(Date.parse(from) + record.turnSeconds * 1000).toISOString() : null;
}

/** What a finished game adds to a body; nothing before the end. */
interface Ending {
  winner?: Winner;
  decidedBy?: DecidedBy;
  result?: SeatResult | null;
  decision?: Decision;
  reveal?: { seed: GameRecord["seed"]; salt: string; commitment: string };
  replayUrl?: string;
}

/** The end of a finished game; with a seat, its result from that seat's side. */
function ending(ctx: GameContext, baseUrl: string, seat: Seat | null = null): Ending {
  const r = ctx.record;
  const f = factsOf(ctx);
  if (f.status !== "finished") return {};
  const firstPlayer = ctx.engine?.firstPlayer ?? r.firstPlayer;
  const decision =
    f.decidedBy && firstPlayer
      ? decisionOf({ winner: f.winner, decidedBy: f.decidedBy, score: f.score, firstPlayer, rulesVersion: ctx.engine?.rulesVersion ?? r.rulesVersion })
      : undefined;
  return {
    winner: f.winner,
    decidedBy: f.decidedBy,
    ...(seat ? { result: resultFor(f.winner, seat) } : {}),
    ...(decision ? { decision } : {}),
    // A sealed league game's seed is also the running game's of its deal: shown once both have finished.
    ...(r.sealed ? {} : { reveal: { seed: r.seed, salt: r.salt, commitment: r.commitment }, replayUrl: linksFor(baseUrl, r.id).replay }),
  };
}

/** The sync body: a seat's (or a spectator's) state plus every move from `since` on. */
export function syncBody(ctx: GameContext, seat: Seat | null, since: number, baseUrl: string) {
  const r = ctx.record;
  const f = factsOf(ctx);
  const state = ctx.engine ? (seat ? seatView(ctx.engine, seat) : spectatorView(ctx.engine)) : null;
  const turn = ctx.engine && f.status === "active" ? ctx.engine.turn : null;
  const details = placementDetails(ctx, since);
  return {
    gameId: r.id,
    status: f.status,
    view: seat ? ("seat" as const) : ("spectator" as const),
    seat,
    yourTurn: seat ? turn === seat : undefined,
    // What a bot may play now, in the notation it sends back; empty while it waits.
    legalMoves: seat && ctx.engine ? legalMovesFor(ctx.engine, seat) : undefined,
    turn,
    since,
    moveCount: f.moveCount,
    players: publicPlayers(ctx),
    ruleset: r.ruleset,
    commitment: r.commitment,
    state,
    moves: f.moves.slice(since).map((m, i) => {
      const d = details[i];
      return {
        index: since + i,
        n: m.n,
        seat: m.seat,
        notation: m.notation,
        name: m.name,
        card: m.card,
        square: m.square,
        captures: m.captures,
        score: m.score,
        at: ctx.timeline[since + i],
        events: d.events,
        state: { board: boardCells(d.board), ...d.state },
      };
    }),
    lastMoveAt: r.lastMoveAt ?? null,
    turnDeadline: turnDeadline(r, ctx),
    urls: linksFor(baseUrl, r.id),
    ...ending(ctx, baseUrl, seat),
  };
}

/**
 * The sync answer for a caller: the seat its token names (a token that names none is refused, never
 * downgraded to a spectator), and every move from `since`, which may not pass the last move.
 */
export function syncFor(ctx: GameContext, tokenHash: string | null, since: number, baseUrl: string): Outcome<ReturnType<typeof syncBody>> {
  const seat = tokenHash ? seatOfToken(ctx.record, tokenHash) : null;
  if (tokenHash && !seat) return fail("unauthorized", "wrong player token for this game");
  const moveCount = factsOf(ctx).moveCount;
  if (since > moveCount) return fail("bad_request", `since (${since}) is beyond the last move (${moveCount})`);
  return { ok: true, value: syncBody(ctx, seat, since, baseUrl) };
}

/**
 * The full public game record of GET /games/{id}: never a hand, never the seed before the end (of both games
 * of a league deal).
 */
export function gameRecordBody(ctx: GameContext, baseUrl: string) {
  const r = ctx.record;
  const f = factsOf(ctx);
  const v = ctx.engine ? spectatorView(ctx.engine) : null;
  return {
    id: r.id,
    status: f.status,
    ruleset: r.ruleset,
    opponent: r.opponent,
    level: r.level ?? null,
    public: r.public,
    turnSeconds: r.turnSeconds,
    players: publicPlayers(ctx),
    firstPlayer: r.firstPlayer ?? null,
    turn: v && f.status === "active" ? v.turn : null,
    moveCount: f.moveCount,
    score: f.score,
    board: v?.board ?? [],
    chessTiles: v?.chessTiles ?? [],
    mutators: v?.mutators ?? [],
    squareElements: v?.squareElements ?? [],
    champions: v?.champions ?? null,
    hands: v?.hands ?? null,
    pile: v?.pile ?? null,
    moves: f.moves.map((m) => m.notation),
    commitment: r.commitment,
    tournamentId: r.tournamentId ?? null,
    leagueId: r.leagueId ?? null,
    createdAt: r.createdAt,
    startedAt: r.startedAt ?? null,
    lastMoveAt: r.lastMoveAt ?? null,
    finishedAt: r.finishedAt ?? null,
    turnDeadline: turnDeadline(r, ctx),
    urls: linksFor(baseUrl, r.id),
    ...ending(ctx, baseUrl),
  };
}

export type SyncBody = ReturnType<typeof syncBody>;
export type RecordBody = ReturnType<typeof gameRecordBody>;
/** What an accepted move answers: the move, the mover's view after it, and the game's status. */
export interface MoveAnswer {
  move: ShownMove;
  view: SeatView;
  status: GameRecord["status"];
}

/** A finished game's replay; null before the end, for a game aborted before it started, and while sealed. */
export function replayBody(ctx: GameContext, baseUrl: string): Replay | null {
  if (ctx.record.sealed || factsOf(ctx).status !== "finished" || !ctx.engine || ctx.engine.status !== "finished") return null;
  const names = { A: ctx.record.seats.A?.name ?? "A", B: ctx.record.seats.B?.name ?? "B" };
  return buildReplay(ctx.engine, { id: ctx.record.id, players: names, replayUrl: linksFor(baseUrl, ctx.record.id).replay });
}
