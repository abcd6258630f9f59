/**
 * The state room: the game's replicated state in a room with nothing of the service around it. It holds
 * the engine and the game room's public schema state, written by the same Projector, each seat's hand sent
 * to its client as the game room sends it, one patch per move (no patch timer) and the game room's shared handshake. It has
 * no store, no group commit, no record, no events, no turn clock, no REST: what a Colyseus room costs to
 * replicate this game's state, per move and in memory, beside which the game room's own figures show what
 * the service adds.
 *
 * Each "inc" plays the first legal move of the seat to move (whoever sent it: the benchmark's two clients
 * alternate, as the bare room's do) and is acknowledged after the patch. A game that ends starts again in
 * the same room from a new seed, its board emptied, so the room measures moves, not set-ups.
 */
import { Room, type Client, type Serializer } from "@colyseus/core";
import { commitmentOf, legalMoves, type Seat } from "../../src/engine";
import { startEngine, step, type GameContext } from "../../src/services/games/context";
import type { GameRecord } from "../../src/store/port";
import { corkForThisTurn } from "../../src/edges/transport";
import { NO_PATCH_TIMER } from "../../rooms/game-room";
import { GameRoomState } from "../../rooms/game-state";
import { deliverHands } from "../../rooms/hands";
import { Projector } from "../../rooms/projection";
import { withSharedHandshake } from "../../rooms/state-serializer";

let seeds = 0;

function freshContext(): GameContext {
  const seed = ++seeds;
  const salt = "s".repeat(32);
  const now = new Date().toISOString();
  const seat = (name: string) => ({ playerId: name, name, kind: "human" as const, tokenHash: "t".repeat(64) });
  const record: GameRecord = {
    id: `state-${seed}`,
    ruleset: "classic",
    opponent: "friend",
    public: true,
    turnSeconds: 120,
    seed,
    salt,
    commitment: commitmentOf(seed, salt),
    status: "active",
    seats: { A: seat("a"), B: seat("b") },
    moveCount: 0,
    score: { A: 0, B: 0 },
    winner: null,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
  };
  return { record, engine: startEngine(record), timeline: [], endEvents: [] };
}

export class StateRoom extends Room<{ state: GameRoomState }> {
  private ctx = freshContext();
  private projector!: Projector;
  private readonly connected: Record<Seat, boolean> = { A: false, B: false };

  override onCreate() {
    this.maxClients = 2;
    this.patchRate = NO_PATCH_TIMER;
    this.state = new GameRoomState();
    this.projector = new Projector(this.state);
    this.refresh();
    this.onMessage("inc", (client: Client, seq: unknown) => {
      this.play();
      client.send("ack", seq);
    });
  }

  override setSerializer(serializer: Serializer<GameRoomState>) {
    super.setSerializer(withSharedHandshake(serializer));
  }

  override onJoin(client: Client) {
    const seat: Seat = this.connected.A ? "B" : "A";
    client.userData = { seat };
    this.connected[seat] = true;
    this.refresh();
  }

  override onLeave(client: Client) {
    this.connected[(client.userData as { seat: Seat }).seat] = false;
  }

  private play() {
    const engine = this.ctx.engine!;
    if (engine.status !== "active") return this.restart();
    const [move] = legalMoves(engine);
    const r = step(this.ctx, { kind: "place", card: move.card, square: move.square });
    if (!r.ok) throw new Error(`state room: ${r.detail}`);
    this.ctx = { ...this.ctx, engine: r.state };
    this.refresh();
  }

  /** A new game in place: the projection starts from an empty board and empty hands, as in a new room. */
  private restart() {
    this.ctx = freshContext();
    this.state.board.clear();
    this.state.owners.clear();
    this.state.chessTiles.clear();
    this.state.elements.clear();
    this.state.mutators.clear();
    this.projector = new Projector(this.state);
    this.refresh();
  }

  private refresh() {
    this.projector.project(this.ctx, this.connected, 0);
    corkForThisTurn(this.clients);
    this.broadcastPatch();
    deliverHands(this.ctx.engine, this.clients);
  }
}
