/**
 * Lifecycle events of a game as the outside world sees them (webhooks, MCP notifications). Built from a
 * GameContext only, so that the room (on a transition) and the subscription service (an event whose
 * condition already holds at subscribe time) describe a game identically. Never a hand, never the seed.
 */
import type { Seat } from "../game";
import type { EventName, EventOf } from "../events/catalog";
import type { GameContext } from "./context";
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

const lastNotation = (ctx: GameContext) => ctx.timeline.at(-1)?.move.notation ?? "";

export function turnEvent(ctx: GameContext, seat: Seat, baseUrl: string): OutEvent<"game.turn"> {
  const r = ctx.record;
  const yourTurn = r.status === "active" && ctx.engine?.turn === seat;
  return {
    name: "game.turn",
    match: { game_id: r.id, seat },
    sequence: ctx.timeline.length,
    data: {
      game_id: r.id,
      seat,
      your_turn: yourTurn,
      status: r.status,
      move_count: ctx.timeline.length,
      last_move: lastNotation(ctx),
      score: { ...r.score },
      winner: r.status === "finished" ? r.winner : null,
      url: linksFor(baseUrl, r.id).watch,
    },
  };
}

export function moveEvent(ctx: GameContext, index: number): OutEvent<"game.move"> {
  const t = ctx.timeline[index];
  return {
    name: "game.move",
    match: { game_id: ctx.record.id },
    // The stream position is the move count once this move was played (move index + 1).
    sequence: index + 1,
    data: {
      game_id: ctx.record.id,
      move_index: index,
      n: t.move.n,
      seat: t.move.seat,
      notation: t.move.notation,
      name: t.move.name,
      captures: t.move.captures,
      score: t.move.score,
      board: t.move.board,
      status: t.state.status,
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
  return {
    name: "game.finished",
    match: { game_id: r.id },
    data: {
      game_id: r.id,
      winner: r.winner,
      // A finished record always names what ended it; the fallback only narrows the type.
      decided_by: r.decidedBy ?? "aborted",
      score: { ...r.score },
      players: publicPlayers(ctx),
      move_count: ctx.timeline.length,
      replay_url: linksFor(baseUrl, r.id).replay,
    },
  };
}

/** What a new subscription needs: the events that hold now and the stream position it starts after. */
export function eventsNow(ctx: GameContext, name: EventName, args: Record<string, unknown>, baseUrl: string) {
  return { events: eventsHoldingNow(ctx, name, args, baseUrl), moveCount: ctx.timeline.length };
}

/**
 * The events whose condition already holds for a new subscription (spec 3.2): its turn now, the game
 * already started or finished. game.move never fires at once: it begins after the moves already played.
 */
export function eventsHoldingNow(ctx: GameContext, name: EventName, args: Record<string, unknown>, baseUrl: string): OutEvent[] {
  const r = ctx.record;
  switch (name) {
    case "game.turn": {
      const seat = args.seat as Seat;
      if (r.status === "finished") return [turnEvent(ctx, seat, baseUrl)];
      if (r.status === "active" && ctx.engine?.turn === seat) return [turnEvent(ctx, seat, baseUrl)];
      return [];
    }
    case "game.started":
      return r.status !== "waiting" && ctx.engine ? [startedEvent(ctx, baseUrl)] : [];
    case "game.finished":
      return r.status === "finished" ? [finishedEvent(ctx, baseUrl)] : [];
    case "game.move": // begins after the moves already played
    case "challenge.played": // not a game's event
      return [];
  }
}
