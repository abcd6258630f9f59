/**
 * Lifecycle events of a game as the outside world sees them (webhooks, MCP notifications). Built from a
 * GameContext only, so that the room (on a transition) and the subscription service (an event whose
 * condition already holds at subscribe time) describe a game identically. Never a hand, never the seed.
 */
import { boardCells, decisionOf, resultsOf, type Seat } from "../../engine";
import type { EventName, EventOf } from "../events/catalog";
import { boardAfter, factsOf, type GameContext } from "./context";
import { linksFor, publicPlayers } from "./views";

export type { EventName } from "../events/catalog";

/**
 * One outgoing event, its `data` typed by the catalog's schema of its name; `match` selects subscriptions
 * by their stored arguments.
 */
export type OutEvent<N extends EventName = EventName> = EventOf<N> & {
  match: Record<string, unknown>;
  /** Position in the game's stream (the move index for game.move); lets receivers order events. */
  sequence?: number;
};

/** Where events go. The events module implements it; tests may record. */
export interface EventSink {
  emit(event: OutEvent): void;
}

export function turnEvent(ctx: GameContext, seat: Seat, baseUrl: string): OutEvent<"game.turn"> {
  const r = ctx.record;
  const f = factsOf(ctx);
  const yourTurn = f.status === "active" && ctx.engine?.turn === seat;
  return {
    name: "game.turn",
    match: { game_id: r.id, seat },
    sequence: f.moveCount,
    data: {
      game_id: r.id,
      seat,
      your_turn: yourTurn,
      status: f.status,
      move_count: f.moveCount,
      last_move: f.moves.at(-1)?.notation ?? "",
      score: { ...f.score },
      winner: f.winner,
      url: linksFor(baseUrl, r.id).watch,
    },
  };
}

export function moveEvent(ctx: GameContext, index: number): OutEvent<"game.move"> {
  const move = factsOf(ctx).moves[index];
  const after = boardAfter(ctx, index);
  return {
    name: "game.move",
    match: { game_id: ctx.record.id },
    // The stream position is the move count once this move was played (move index + 1).
    sequence: index + 1,
    data: {
      game_id: ctx.record.id,
      move_index: index,
      n: move.n,
      seat: move.seat,
      notation: move.notation,
      name: move.name,
      captures: move.captures,
      score: move.score,
      board: boardCells(after),
      // A placement ends the game only by filling the board (resignations and timeouts are not placements).
      status: after.every((c) => c !== null) ? "finished" : "active",
    },
  };
}

export function startedEvent(ctx: GameContext, baseUrl: string): OutEvent<"game.started"> {
  const r = ctx.record;
  // Only a game with both seats (so with an engine) starts; the engine names who opens.
  const first = ctx.engine?.firstPlayer ?? r.firstPlayer;
  if (!first) throw new Error(`game.started for ${r.id}, which has no first player yet`);
  return {
    name: "game.started",
    match: { game_id: r.id },
    data: {
      game_id: r.id,
      players: publicPlayers(ctx),
      ruleset: r.ruleset,
      first_player: first,
      url: linksFor(baseUrl, r.id).watch,
    },
  };
}

export function finishedEvent(ctx: GameContext, baseUrl: string): OutEvent<"game.finished"> {
  const r = ctx.record;
  const f = factsOf(ctx);
  const links = linksFor(baseUrl, r.id);
  // A finished game always names what ended it and who opened; the fallbacks only narrow the types.
  const decidedBy = f.decidedBy ?? "aborted";
  const d = decisionOf({
    winner: f.winner,
    decidedBy,
    score: f.score,
    firstPlayer: ctx.engine?.firstPlayer ?? r.firstPlayer ?? "A",
    rulesVersion: ctx.engine?.rulesVersion ?? r.rulesVersion,
  });
  return {
    name: "game.finished",
    match: { game_id: r.id },
    data: {
      game_id: r.id,
      winner: f.winner,
      decided_by: decidedBy,
      score: { ...f.score },
      players: publicPlayers(ctx),
      move_count: f.moveCount,
      replay_url: links.replay,
      replay_page: links.replayPage,
      results: resultsOf(f.winner),
      decision: { by: d.by, tied_board: d.tiedBoard, tie_rule: d.tieRule, summary: d.summary },
    },
  };
}

/** What a new subscription needs: the events that hold now and the stream position it starts after. */
export function eventsNow(ctx: GameContext, name: EventName, args: Record<string, unknown>, baseUrl: string) {
  return { events: eventsHoldingNow(ctx, name, args, baseUrl), moveCount: factsOf(ctx).moveCount };
}

/**
 * The events whose condition already holds for a new subscription (spec 3.2): its turn now, the game
 * already started or finished. game.move never fires at once: it begins after the moves already played.
 */
export function eventsHoldingNow(ctx: GameContext, name: EventName, args: Record<string, unknown>, baseUrl: string): OutEvent[] {
  const { status } = factsOf(ctx);
  switch (name) {
    case "game.turn": {
      const seat = args.seat as Seat;
      if (status === "finished") return [turnEvent(ctx, seat, baseUrl)];
      if (status === "active" && ctx.engine?.turn === seat) return [turnEvent(ctx, seat, baseUrl)];
      return [];
    }
    case "game.started":
      return status !== "waiting" && ctx.engine ? [startedEvent(ctx, baseUrl)] : [];
    case "game.finished":
      return status === "finished" ? [finishedEvent(ctx, baseUrl)] : [];
    case "game.move": // begins after the moves already played
    case "challenge.played": // not a game's event
    case "tournament.started":
    case "tournament.paired":
    case "tournament.finished":
    case "league.finished":
      return [];
  }
}
