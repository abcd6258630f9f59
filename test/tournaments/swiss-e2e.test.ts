/**
 * A swiss of five entrants played end to end over REST by scripted clients on a real server: each entrant
 * long-polls the tournament's games, plays its seat of each pairing with its entrant token, and the final
 * standings are checked against a recomputation from the games' own records (winner, seats, first mover).
 */
import assert from "node:assert/strict";
import type { RunningServer } from "../../src/server";
import { parseTrf } from "../../src/services/tournaments/trf";
import { playToEnd, waitForJson } from "../agents/play";
import { bearer, bootServer, http } from "../support/server";

interface GameRow {
  first: string;
  second: string;
  gameId: string;
  outcome: string | null;
}
interface RoundRow {
  round: number;
  bye: string | null;
  games: GameRow[];
}

describe("Swiss tournament over REST", function () {
  this.timeout(120_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await bootServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  it("refuses bad input with problem documents and changes nothing", async () => {
    const bad = await http(base, "POST", "/api/v1/tournaments", { name: "x", rounds: 0 });
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.equal((await http(base, "GET", "/api/v1/tournaments/t_doesnotexist1")).status, 404);
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Refusals", rounds: 1 });
    assert.equal(t.status, 201, t.text);
    const id = t.json.tournament.id as string;
    assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "A", extra: 1 })).status, 400);
    const one = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Solo" });
    assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(one.json.playerToken))).status, 403);
    assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken))).status, 409);
    assert.equal((await http(base, "GET", `/api/v1/tournaments/${id}`)).json.status, "open");
  });

  it("plays 3 rounds among 5 entrants and publishes standings that match the games", async () => {
    const rounds = 3;
    const created = await http(base, "POST", "/api/v1/tournaments", { name: "Five swiss", rounds });
    assert.equal(created.status, 201, created.text);
    const id = created.json.tournament.id as string;
    const entrants: { playerId: string; token: string }[] = [];
    for (const name of ["Ada", "Bo", "Cy", "Di", "Ed"]) {
      const j = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name });
      assert.equal(j.status, 201, j.text);
      entrants.push({ playerId: j.json.playerId, token: j.json.playerToken });
    }
    const started = await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(created.json.directorToken));
    assert.equal(started.status, 200, started.text);
    assert.equal(started.json.status, "running");

    // Every entrant plays its own seat of every round, as a separate client would.
    await Promise.all(
      entrants.map(async (e) => {
        for (let r = 1; r <= rounds; r++) {
          const g = await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.rounds.length >= r, 60_000);
          const round = g.rounds[r - 1] as RoundRow;
          if (round.bye === e.playerId) continue;
          const mine = round.games.find((x) => x.first === e.playerId || x.second === e.playerId)!;
          await playToEnd(base, mine.gameId, e.token, 60_000);
        }
      }),
    );
    const t = await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished", 30_000);
    assert.equal(t.round, rounds);

    // Independent recomputation from the games' records.
    const played = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.rounds as RoundRow[];
    const score = new Map(entrants.map((e) => [e.playerId, 0]));
    const opponents = new Map(entrants.map((e) => [e.playerId, [] as string[]]));
    const beaten = new Map(entrants.map((e) => [e.playerId, [] as [string, number][]]));
    const met = new Set<string>();
    for (const round of played) {
      assert.equal(round.bye !== null, true, "five entrants: one bye a round");
      score.set(round.bye!, score.get(round.bye!)! + 1);
      for (const g of round.games) {
        const key = [g.first, g.second].sort().join("|");
        assert.ok(!met.has(key), `pairing ${key} repeated`);
        met.add(key);
        const rec = (await http(base, "GET", `/api/v1/games/${g.gameId}`)).json;
        assert.equal(rec.status, "finished");
        const firstSeat = rec.firstPlayer as "A" | "B";
        assert.equal(rec.players[firstSeat].id, g.first, "the first-listed player moves first");
        const winnerId = rec.winner === "draw" || rec.winner === null ? null : rec.players[rec.winner].id;
        const pts = (p: string) => (winnerId === null ? 0.5 : winnerId === p ? 1 : 0);
        for (const [p, o] of [
          [g.first, g.second],
          [g.second, g.first],
        ]) {
          score.set(p, score.get(p)! + pts(p));
          opponents.get(p)!.push(o);
          beaten.get(p)!.push([o, pts(p)]);
        }
      }
    }
    const table = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as any[];
    assert.equal(table.length, 5);
    for (const row of table) {
      assert.equal(row.score, score.get(row.playerId), `score of ${row.name}`);
      assert.equal(
        row.buchholz,
        opponents.get(row.playerId)!.reduce((s, o) => s + score.get(o)!, 0),
        `Buchholz of ${row.name}`,
      );
      assert.equal(
        row.sonnebornBerger,
        beaten.get(row.playerId)!.reduce((s, [o, p]) => s + p * score.get(o)!, 0),
        `S-B of ${row.name}`,
      );
    }
    for (let i = 1; i < table.length; i++) {
      const [a, b] = [table[i - 1], table[i]];
      assert.ok(a.score > b.score || (a.score === b.score && a.buchholz >= b.buchholz), "sorted by score then Buchholz");
    }

    const trf = await http(base, "GET", `/api/v1/tournaments/${id}/trf`);
    assert.equal(trf.status, 200);
    const parsed = parseTrf(trf.text);
    assert.equal(parsed.rounds, rounds);
    for (const p of parsed.players) {
      assert.equal(p.points, score.get(p.name));
      assert.equal(p.games.length, rounds);
    }
  });
});

describe("Swiss tournament after a crash", function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async () => {
    server = await bootServer();
  });
  after(async () => {
    await server?.close();
  });

  it("counts, once, a finished game whose result a crash kept from the tournament", async () => {
    const base = server.url;
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Crash", rounds: 1 });
    const id = t.json.tournament.id as string;
    const a = (await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ann" })).json;
    const b = (await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ben" })).json;
    await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken));
    const gameId = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.rounds[0].games[0].gameId as string;
    await Promise.all([playToEnd(base, gameId, a.playerToken), playToEnd(base, gameId, b.playerToken)]);
    await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished");
    const counted = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings;

    // The state a process killed between storing the game and its finish hook leaves behind.
    const stored = (await server.store.tournaments.getTournament(id))!;
    const lost = structuredClone(stored);
    delete lost.played[0].games[0].outcome;
    lost.status = "running";
    lost.version += 1;
    assert.ok(await server.store.tournaments.replaceTournamentIf(lost));

    await server.tournaments.reconcile(id);
    await server.tournaments.reconcile(id);
    const after = (await server.store.tournaments.getTournament(id))!;
    assert.equal(after.status, "finished");
    assert.equal(after.played[0].games[0].outcome, stored.played[0].games[0].outcome);
    assert.deepEqual((await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings, counted);
  });
});
