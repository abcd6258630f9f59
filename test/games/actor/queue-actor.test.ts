/**
 * The quick-match queue actor without a server (src/services/games/actor/queue-actor.ts): sockets and REST
 * tickets paired first come, first served into games made through its port, a revoked bot never seated, and
 * what it shows the sockets through `QueueShow`.
 */
import { strict as assert } from "node:assert";
import type { Seat } from "../../../src/engine";
import { QueueActor, type QueueDeps, type QueueShow, type SocketMatch } from "../../../src/services/games/actor/queue-actor";
import type { SeatClaim } from "../../../src/services/games/seats";
import type { PlayerService } from "../../../src/services/players/service";
import { createLogger } from "../../../src/shared/logger";

const seat = (playerId: string, kind: SeatClaim["kind"] = "human"): SeatClaim => ({ playerId, name: playerId, kind, tokenHash: `h-${playerId}` });

function queue(revoked = new Set<string>()) {
  const games: Array<{ id: string; seats: Record<Seat, SeatClaim> }> = [];
  const shown: string[] = [];
  const matches = new Map<string, SocketMatch>();
  const tickets = new Map<string, { gameId: string; seat: Seat }>();
  const withdrawn: string[] = [];
  const aborted: string[] = [];
  const deps: QueueDeps = {
    players: {} as PlayerService,
    createMatched: async (_ruleset, seats) => {
      const id = `g${games.length + 1}`;
      games.push({ id, seats });
      return id;
    },
    reserveSeat: async () => ({ sessionId: "s", room: { roomId: "r" } }) as never,
    ticketMatched: async (ticket, match) => void tickets.set(ticket, match),
    log: createLogger("silent"),
    revokedBots: async (ids) => new Set(ids.filter((id) => revoked.has(id))),
    ticketWithdrawn: async (ticket) => void withdrawn.push(ticket),
    abortMatched: async (gameId) => void aborted.push(gameId),
    restEntryTtlS: 60,
  };
  const show: QueueShow<string> = {
    queued: (from, position) => shown.push(`queued ${from} ${position}`),
    matched: (from, match) => void matches.set(from, match),
    revoked: (from) => shown.push(`revoked ${from}`),
    waiting: (count) => shown.push(`waiting ${count}`),
  };
  return { actor: new QueueActor<string>("classic", deps, show), games, shown, matches, tickets, withdrawn, aborted };
}

describe("QueueActor: the quick-match queue without a server", () => {
  it("pairs a socket and a ticket in arrival order, seats the first as A, and shows the socket its match", async () => {
    const q = queue();
    q.actor.join("ws1", seat("P1"), "token-1", { id: "P1" });
    assert.deepEqual(q.actor.enqueue("t2", seat("P2")), { ok: true, value: { position: 2 } });
    await q.actor.settled();
    assert.equal(q.games.length, 1);
    assert.equal(q.games[0].seats.A.playerId, "P1");
    assert.equal(q.games[0].seats.B.playerId, "P2");
    assert.notEqual(q.games[0].seats.A.tokenHash, "token-1", "the socket's seat holds the token's hash, not the token");
    assert.deepEqual(q.tickets.get("t2"), { gameId: "g1", seat: "B" });
    assert.equal(q.matches.get("ws1")?.playerToken, "token-1");
    assert.equal(q.matches.get("ws1")?.seat, "A");
    assert.equal(q.shown[0], "queued ws1 1");
    assert.equal(q.shown.at(-1), "waiting 0");
  });

  it("refuses a ticket queued twice and forgets one that left", async () => {
    const q = queue();
    q.actor.enqueue("t1", seat("P1"));
    assert.equal(q.actor.enqueue("t1", seat("P1")).ok, false);
    assert.deepEqual(q.actor.touch("t1"), { ok: true, value: { queued: true } });
    assert.deepEqual(q.actor.leave("t1"), { ok: true, value: { removed: true } });
    assert.deepEqual(q.actor.touch("t1"), { ok: true, value: { queued: false } });
  });

  it("never seats a bot whose key is revoked: its ticket is withdrawn and the other entry stays first in line", async () => {
    const q = queue(new Set(["BOT"]));
    q.actor.enqueue("tb", seat("BOT", "bot"));
    q.actor.join("ws1", seat("P1"), "token-1", {});
    await q.actor.settled();
    assert.equal(q.games.length, 0);
    assert.deepEqual(q.withdrawn, ["tb"]);
    q.actor.enqueue("t3", seat("P3"));
    await q.actor.settled();
    assert.equal(q.games.length, 1);
    assert.deepEqual([q.games[0].seats.A.playerId, q.games[0].seats.B.playerId], ["P1", "P3"]);
  });

  it("withdraws every entry of a player: its sockets told, its tickets answered", () => {
    const q = queue();
    q.actor.join("ws1", seat("BOT", "bot"), "token-1", {});
    const out = q.actor.withdrawPlayer("BOT");
    assert.deepEqual(out, { ok: true, value: { tickets: [] } });
    assert.ok(q.shown.includes("revoked ws1"));
    q.actor.enqueue("t1", seat("BOT", "bot"));
    assert.deepEqual(q.actor.withdrawPlayer("BOT"), { ok: true, value: { tickets: ["t1"] } });
  });
});
