/**
 * The arena rules the service applies to a stored tournament, without a server: the worked example of
 * docs/TOURNAMENTS.md (pairing after the first games, who moves first, streak scoring in the standings) and
 * the end (no one waits, and the arena finishes only when no game is under way).
 */
import { strict as assert } from "node:assert";
import type { TournamentRecord } from "../../src/store/port";
import { arenaEnded, arenaStandingRows, pairPool, settleEnd } from "../../src/services/tournaments/arena-service";

const AT = "2026-01-01T00:00:00.000Z";

function arena(ratings: Record<string, number>): TournamentRecord {
  return {
    id: "t_example01",
    name: "Example",
    format: "arena",
    rounds: 0,
    ruleset: "classic",
    status: "running",
    createdAt: AT,
    updatedAt: AT,
    version: 1,
    played: [],
    entrants: Object.entries(ratings).map(([playerId, rating]) => ({ playerId, name: playerId, rating })),
    arena: { minutes: 10, endsAt: "2026-01-01T00:10:00.000Z", waiting: Object.keys(ratings).map((playerId) => ({ playerId, since: AT })), games: [] },
  };
}

/** Finishes the game under way that `first` moves first in, and puts both players back in the pool, as the service does. */
function finish(t: TournamentRecord, first: string, outcome: "first" | "second" | "draw", since: string) {
  const g = t.arena!.games.find((x) => x.first === first && !x.outcome)!;
  g.outcome = outcome;
  t.arena!.waiting.push({ playerId: g.first, since }, { playerId: g.second, since });
}

describe("Arena rules on a stored tournament", () => {
  it("pairs the worked example: closest rating first, never the last opponent, fewer first moves first", () => {
    const t = arena({ Ann: 1800, Ben: 1700, Cal: 1600, Dee: 1500 });
    assert.deepEqual(
      pairPool(t, AT).map((g) => [g.first, g.second]),
      [
        ["Ann", "Ben"],
        ["Cal", "Dee"],
      ],
    );
    assert.equal(t.arena!.waiting.length, 0);
    finish(t, "Ann", "first", "2026-01-01T00:01:00.000Z");
    assert.deepEqual(pairPool(t, AT), [], "Ann and Ben have just met: they wait");
    assert.deepEqual(
      t.arena!.waiting.map((w) => w.playerId),
      ["Ann", "Ben"],
    );
    finish(t, "Cal", "second", "2026-01-01T00:02:00.000Z");
    assert.deepEqual(
      pairPool(t, AT).map((g) => [g.first, g.second]),
      [
        ["Dee", "Ann"],
        ["Ben", "Cal"],
      ],
    );
    const rows = arenaStandingRows(t);
    assert.deepEqual(
      rows.map((r) => [r.playerId, r.score, r.games]),
      [
        ["Ann", 2, 1],
        ["Dee", 2, 1],
        ["Ben", 0, 1],
        ["Cal", 0, 1],
      ],
    );
  });

  it("scores the worked example's streak: 2 2 4 1 2 2 4 0, with fire after two wins in a row", () => {
    const t = arena({ Ann: 1800, Ben: 1700, Cal: 1600 });
    t.arena!.waiting = [];
    const results = ["first", "first", "first", "draw", "first", "first", "first", "second"] as const;
    const totals: number[] = [];
    const fire: boolean[] = [];
    results.forEach((outcome, i) => {
      t.arena!.games.push({ first: "Ann", second: i % 2 ? "Ben" : "Cal", gameId: `G${i}`, outcome, pairedAt: AT, freeSince: [AT, AT] });
      const ann = arenaStandingRows(t).find((r) => r.playerId === "Ann")!;
      totals.push(ann.score);
      fire.push(ann.fire);
    });
    assert.deepEqual(totals, [2, 4, 8, 9, 11, 13, 17, 17]);
    assert.deepEqual(fire, [false, true, true, false, false, true, true, false]);
  });

  it("at the end empties the pool and finishes only once no game is under way", () => {
    const t = arena({ Ann: 1800, Ben: 1700, Cal: 1600 });
    pairPool(t, AT);
    const before = Date.parse(t.arena!.endsAt!) - 1;
    assert.equal(arenaEnded(t, before), false);
    assert.equal(settleEnd(t, before), false);
    assert.deepEqual(
      t.arena!.waiting.map((w) => w.playerId),
      ["Cal"],
    );
    const end = Date.parse(t.arena!.endsAt!);
    assert.equal(settleEnd(t, end), false, "Ann and Ben are still playing");
    assert.equal(t.arena!.waiting.length, 0);
    assert.equal(t.status, "running");
    t.arena!.games[0].outcome = "draw";
    assert.equal(settleEnd(t, end), true);
    assert.equal(t.status, "finished");
  });
});
