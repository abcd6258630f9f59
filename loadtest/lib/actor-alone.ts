/**
 * The game actor alone (src/services/games/actor/game-actor.ts): the move pipeline without Colyseus, sockets, REST or a store.
 * Its commit port stores nothing and answers "committed" at once; its announce port shows nothing. What is
 * left is what the pipeline itself costs per move: the serial queue, the engine step, the record patch, the
 * clock, the metrics and the after-turn work. Measured in the benchmark's server process (while the servers
 * are idle) beside the whole room, whose steady-state move adds the transport, the projection and the commit.
 *
 * `games` actors play at once, each seat playing the first legal move when its turn comes; a finished game
 * is replaced by a new actor (its start included, as a room's open is in the game phase).
 */
import { commitmentOf, legalMoves } from "../../src/engine";
import { rebuildContext } from "../../src/services/games/context";
import { createLogger } from "../../src/shared/logger";
import { createMetrics } from "../../src/services/metrics";
import type { PlayerService } from "../../src/services/players/service";
import type { GameRecord, GameWriteResult } from "../../src/store/port";
import { GameActor, type ActorDeps, type AnnouncePort, type CommitPort } from "../../src/services/games/actor/game-actor";
import { AfterTurn } from "../../src/services/games/actor/after-turn";
import { cpuSince, nowMs, round } from "./common";

const COMMITTED: Promise<GameWriteResult> = Promise.resolve("committed");
const NO_HAND = { cards: [], legal: [] };

/** The ports of an actor with nobody to store or show its game to. */
const nowhere: CommitPort & AnnouncePort<number> = {
  commit: () => COMMITTED,
  moved: () => undefined,
  changed: () => undefined,
  acknowledge: () => NO_HAND,
  finished: () => undefined,
  aborted: () => undefined,
  released: () => undefined,
};

let games = 0;

function activeRecord(): GameRecord {
  const n = ++games;
  const salt = "s".repeat(32);
  const now = new Date().toISOString();
  const seat = (name: string) => ({ playerId: name, name, kind: "human" as const, tokenHash: name.repeat(64) });
  return {
    id: `actor-${n}`,
    ruleset: "classic",
    opponent: "friend",
    public: true,
    turnSeconds: 120,
    seed: n,
    salt,
    commitment: commitmentOf(n, salt),
    status: "active",
    seats: { A: seat("a"), B: seat("b") },
    moveCount: 0,
    score: { A: 0, B: 0 },
    winner: null,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
  };
}

export interface ActorAlone {
  games: number;
  seconds: number;
  moves: number;
  movesPerSec: number;
  cpuUsPerMove: number;
  gamesFinished: number;
}

export async function measureActorAlone(concurrent: number, seconds: number, warmupSeconds: number): Promise<ActorAlone> {
  const deps: ActorDeps = {
    players: { resultUpdates: async () => [], recordResult: async () => undefined } as unknown as PlayerService,
    metrics: createMetrics(),
    events: { emit: () => undefined },
    listens: () => false,
    publishChange: () => undefined,
    decide: () => Promise.reject(new Error("no house seat here")),
    onFinished: async () => undefined,
    log: createLogger("silent"),
    baseUrl: "http://127.0.0.1",
    houseDelayMs: 0,
    waitingGameTtlS: 3600,
    finishedGraceMs: 30_000,
    afterTurn: new AfterTurn(),
  };
  let running = true;
  let moves = 0;
  let finished = 0;
  const play = async () => {
    while (running) {
      const record = activeRecord();
      const actor = new GameActor<number>(record.id, 1, rebuildContext(record, []), deps, nowhere, nowhere);
      actor.start();
      while (running && actor.status() === "active") {
        const engine = actor.ctx.engine!;
        const [{ card, square }] = legalMoves(engine);
        const out = await actor.play(engine.turn, { card, square }, 0);
        if (!out.ok) throw new Error(`actor alone: ${out.detail}`);
        await out.value.settled;
        moves++;
        // Each move arrives in a turn of its own, as a frame read from a socket does (and the after-turn work runs).
        await new Promise((r) => setImmediate(r));
      }
      actor.stop();
      if (running) finished++;
    }
  };
  const loops = Array.from({ length: concurrent }, play);
  await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
  const c0 = process.cpuUsage();
  const t0 = nowMs();
  const m0 = moves;
  const g0 = finished;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpu = cpuSince(c0);
  const elapsed = (nowMs() - t0) / 1000;
  const m1 = moves;
  const g1 = finished;
  running = false;
  await Promise.all(loops);
  return {
    games: concurrent,
    seconds: round(elapsed, 2),
    moves: m1 - m0,
    movesPerSec: round((m1 - m0) / elapsed, 0),
    cpuUsPerMove: round(cpu / Math.max(1, m1 - m0), 1),
    gamesFinished: g1 - g0,
  };
}
