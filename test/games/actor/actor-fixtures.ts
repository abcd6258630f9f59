/**
 * A game actor (src/services/games/actor/game-actor.ts) on plain ports, without a server: its writes and announcements recorded,
 * its service dependencies stand-ins. Shared by the tests that drive the move pipeline directly.
 */
import { legalMoves, type GameState, type Seat } from "../../../src/engine";
import { rebuildContext } from "../../../src/services/games/context";
import type { OutEvent } from "../../../src/services/games/game-events";
import type { PlayerService } from "../../../src/services/players/service";
import type { GameRecord, GamesPort, GameWrite, GameWriteResult } from "../../../src/store/port";
import { createLogger } from "../../../src/shared/logger";
import { createMetrics } from "../../../src/services/metrics";
import { GameActor, type ActorDeps, type AnnouncePort, type CommitPort } from "../../../src/services/games/actor/game-actor";
import { AfterTurn } from "../../../src/services/games/actor/after-turn";
import type { SeatHand } from "../../../rooms/messages";
import { game } from "../../store/fixtures";

export const T0 = Date.parse("2026-01-01T00:00:00.000Z");
export const iso = (ms: number) => new Date(ms).toISOString();
const metrics = createMetrics();

/**
 * The actor's two ports, recorded: every write it hands the commit port (answered at once with `answer`,
 * or held until `release` when `hold` is set), and every announcement in order.
 */
export class Ports implements CommitPort, AnnouncePort<string> {
  writes: GameWrite[] = [];
  told: string[] = [];
  answer: GameWriteResult | Error = "committed";
  hold = false;
  private held: Array<() => void> = [];

  commit(write: GameWrite): Promise<GameWriteResult> {
    this.writes.push(write);
    const answer = this.answer;
    const settle = (): Promise<GameWriteResult> => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer));
    if (!this.hold) return settle();
    return new Promise((resolve, reject) => this.held.push(() => void settle().then(resolve, reject)));
  }
  /** Answers the oldest held write. */
  release() {
    this.held.shift()!();
  }
  moved(gameId: string, epoch: number) {
    this.told.push(`moved ${gameId} ${epoch}`);
  }
  changed() {
    this.told.push("changed");
  }
  acknowledge(from: string, engine: GameState, seat: Seat): SeatHand {
    this.told.push(`ack ${from} ${seat} ${engine.moves.length}`);
    return { cards: [], legal: [] };
  }
  finished() {
    this.told.push("finished");
  }
  aborted() {
    this.told.push("aborted");
  }
  released() {
    this.told.push("released");
  }
}

export function deps(): ActorDeps & { events: { emit(e: OutEvent): void; emitted: string[] }; published: number[] } {
  const emitted: string[] = [];
  const published: number[] = [];
  const players = { resultUpdates: async () => [], recordResult: async () => undefined } as unknown as PlayerService;
  return {
    players,
    metrics,
    events: { emitted, emit: (e: OutEvent) => emitted.push(e.name) },
    listens: () => true,
    publishChange: (_id, change) => published.push(change.moveCount),
    published,
    decide: async () => ({ card: "", square: "" }),
    onFinished: async () => undefined,
    log: createLogger("silent"),
    baseUrl: "http://127.0.0.1:1",
    houseDelayMs: 500,
    waitingGameTtlS: 60,
    finishedGraceMs: 30_000,
    afterTurn: new AfterTurn(),
  };
}

export const seats = {
  A: { playerId: "P1", name: "Ada", kind: "human" as const, tokenHash: "aa" },
  B: { playerId: "P2", name: "Bo", kind: "human" as const, tokenHash: "bb" },
};

export function actorOf(record: GameRecord) {
  const ports = new Ports();
  const d = deps();
  const actor = new GameActor<string>(record.id, 7, rebuildContext(record, []), d, ports, ports);
  actor.start();
  return { actor, ports, deps: d };
}

export const activeGame = () => actorOf(game("G1", { status: "active", createdAt: iso(T0), startedAt: iso(T0), turnSeconds: 10, seats }));

/** The first legal move of the seat to move. */
export function nextMove(actor: GameActor<string>): { seat: Seat; move: { card: string; square: string } } {
  const engine = actor.ctx.engine!;
  const { card, square } = legalMoves(engine)[0];
  return { seat: engine.turn, move: { card, square } };
}

/** Lets queued promise work and the after-turn immediates run. */
export const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
};

/**
 * What the store holds of the actor's game: `record` as it was opened, with every write the commit port took
 * applied in order (its record fields and its actions; for ports that commit every write), read through the
 * games port's two reads.
 */
export function storedBy(record: GameRecord, ports: Ports): Pick<GamesPort, "getGame" | "listActions"> {
  return {
    getGame: async (id) => (id === record.id ? ports.writes.reduce<GameRecord>((r, w) => ({ ...r, ...w.patch }), record) : null),
    listActions: async (id) => (id === record.id ? ports.writes.flatMap((w) => w.actions) : []),
  };
}
