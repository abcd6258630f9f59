/**
 * An arena played end to end on a real server by scripted clients: five entrants over REST and one seat over
 * WebSocket play game after game as they are paired, one entrant joins late and one withdraws, a spectator
 * watches the tournament room, and when the time is up (the stored `endsAt`, brought forward by the test) the
 * games under way finish and the arena is finished. The standings are checked against a recomputation from the
 * games' own records (winner, seats, first mover), written here independently of src/services/tournaments/arena.ts.
 * Services racing on one store (as several processes would) count a result and pair a player once, and a
 * service started afresh finishes an arena on time from its stored end.
 */
import assert from "node:assert/strict";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import type { TournamentRecord } from "../../src/store/port";
import { TournamentService } from "../../src/services/tournaments";
import { playToEnd, waitForJson } from "../agents/play";
import { bearer, bootServer, eventually, http } from "../support/server";
import { joinWs } from "../support/ws";

interface ArenaGameRow {
  first: string;
  second: string;
  gameId: string;
  outcome: string | null;
  pairedAt: string;
}
interface Entrant {
  name: string;
  playerId: string;
  token: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rewrites the stored tournament by compare-and-set, as another process would. */
async function storeEdit(server: RunningServer, id: string, edit: (t: TournamentRecord) => void): Promise<void> {
  for (;;) {
    const t = (await server.store.tournaments.getTournament(id))!;
    edit(t);
    t.version += 1;
    if (await server.store.tournaments.replaceTournamentIf(t)) return;
  }
}

/** Plays a seat to its end; a game is created just after its pairing is stored, so a missing game is retried. */
async function playSeat(base: string, gameId: string, token: string, ws: boolean): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      if (ws) {
        const seat = await joinWs(base, gameId, token);
        await seat.playToEnd();
        await seat.leave();
      } else {
        await playToEnd(base, gameId, token, 60_000);
      }
      return;
    } catch (err) {
      if (attempt > 100 || !/404|not_found|no game/i.test(String(err))) throw err;
      await sleep(20);
    }
  }
}

describe("Arena tournament over REST and WebSocket", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await bootServer();
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  it("refuses bad arena bodies with problem documents and creates nothing", async () => {
    const before = (await http(base, "GET", "/api/v1/tournaments?limit=100")).json.tournaments.length;
    const bodies = [
      { name: "No length", format: "arena" },
      { name: "Too short", format: "arena", minutes: 0 },
      { name: "Too long", format: "arena", minutes: 721 },
      { name: "Fractional", format: "arena", minutes: 1.5 },
      { name: "Rounds are swiss", format: "arena", minutes: 10, rounds: 3 },
      { name: "Minutes are arena", rounds: 3, minutes: 10 },
      { name: "Knockout", format: "knockout", minutes: 10 },
      { name: "", format: "arena", minutes: 10 },
    ];
    for (const body of bodies) {
      const r = await http(base, "POST", "/api/v1/tournaments", body);
      assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
      assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
      assert.equal(r.json.status, 400);
      assert.ok(r.json.type && r.json.title && r.json.detail, r.text);
    }
    assert.equal((await http(base, "GET", "/api/v1/tournaments?limit=100")).json.tournaments.length, before);
    const ok = await http(base, "POST", "/api/v1/tournaments", { name: "Fine", format: "arena", minutes: 5 });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.json.tournament.format, "arena");
    assert.equal(ok.json.tournament.minutes, 5);
    assert.equal(ok.json.tournament.endsAt, null);
    assert.equal((await http(base, "GET", `/api/v1/tournaments/${ok.json.tournament.id}/trf`)).status, 409);
  });

  it("pairs entrants game after game, ends on time, and publishes standings that match the games", async () => {
    const created = await http(base, "POST", "/api/v1/tournaments", { name: "Six arena", format: "arena", minutes: 30 });
    assert.equal(created.status, 201, created.text);
    const id = created.json.tournament.id as string;
    const join = async (name: string): Promise<Entrant> => {
      const j = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name });
      assert.equal(j.status, 201, j.text);
      return { name, playerId: j.json.playerId, token: j.json.playerToken };
    };
    const entrants: Entrant[] = [];
    for (const name of ["Ada", "Bo", "Cy", "Di", "Ed"]) entrants.push(await join(name));
    const spectator = await new Client(base).joinOrCreate("tournament", { tournamentId: id });
    const state = spectator.state;
    await eventually(() => state.tournamentId === id && state.format === "arena" && state.standings.length === 5, "the entrants in the room");

    const started = await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(created.json.directorToken));
    assert.equal(started.status, 200, started.text);
    assert.equal(started.json.status, "running");
    assert.ok(Date.parse(started.json.endsAt) > Date.now() + 29 * 60_000, "ends 30 minutes after the start");
    await eventually(() => state.status === "running" && state.pairings.length === 2, "the first pairings, live");

    let stop = false;
    const withdrawnGames: string[] = [];
    /** One entrant's client: plays each new game of theirs until the arena is over; Quitter withdraws after one. */
    const client = async (e: Entrant, ws: boolean, quitAfter?: number) => {
      const played = new Set<string>();
      let quitting = false;
      for (;;) {
        const list = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.games as ArenaGameRow[];
        const mine = list.find((g) => g.outcome === null && !played.has(g.gameId) && (g.first === e.playerId || g.second === e.playerId));
        if (mine) {
          played.add(mine.gameId);
          await playSeat(base, mine.gameId, e.token, ws);
          if (quitAfter !== undefined && played.size >= quitAfter && !quitting) {
            quitting = true;
            const w = await http(base, "POST", `/api/v1/tournaments/${id}/withdraw`, undefined, bearer(e.token));
            assert.equal(w.status, 200, w.text);
            // Paired again before the withdrawal was stored: that game is still played, and it is the last.
            const after = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.games as ArenaGameRow[];
            withdrawnGames.push(...after.filter((g) => g.first === e.playerId || g.second === e.playerId).map((g) => g.gameId));
          }
          continue;
        }
        if (stop) return;
        await sleep(25);
      }
    };
    const running = entrants.map((e, i) => client(e, i === 4, e.name === "Bo" ? 1 : undefined));
    // Entries stay open while it runs: a late entrant is put in the pool and paired with the next free player.
    const late = await join("Late");
    entrants.push(late);
    running.push(client(late, false));

    const counted = async () =>
      ((await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.games as ArenaGameRow[]).filter((g) => g.outcome !== null).length;
    for (let until = Date.now() + 120_000; (await counted()) < 14;) {
      assert.ok(Date.now() < until, "fourteen games counted");
      await sleep(50);
    }
    // The time is up: brought forward in the store (as if 30 minutes had passed), then acted on by
    // reconciliation; the games under way finish and count, and no new pairing is made.
    const endsAt = new Date().toISOString();
    await storeEdit(server, id, (t) => (t.arena!.endsAt = endsAt));
    await server.tournaments.reconcile(id);
    const late2 = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Too late" });
    assert.equal(late2.status, 409, late2.text);
    const done = await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished", 60_000);
    stop = true;
    await Promise.all(running);
    assert.equal(done.endsAt, endsAt);

    // Independent recomputation from the games' records, in the order paired.
    const games = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json;
    assert.deepEqual(games.waiting, []);
    const list = games.games as ArenaGameRow[];
    assert.ok(list.length >= 14);
    const results = new Map(entrants.map((e) => [e.playerId, [] as ("W" | "D" | "L")[]]));
    const lastOpponent = new Map<string, string>();
    for (const g of list) {
      assert.ok(g.pairedAt <= endsAt, `game ${g.gameId} paired after the end`);
      assert.notEqual(lastOpponent.get(g.first), g.second, `${g.first} met ${g.second} twice in a row`);
      assert.notEqual(lastOpponent.get(g.second), g.first, `${g.second} met ${g.first} twice in a row`);
      lastOpponent.set(g.first, g.second);
      lastOpponent.set(g.second, g.first);
      const rec = (await http(base, "GET", `/api/v1/games/${g.gameId}`)).json;
      assert.equal(rec.status, "finished");
      assert.equal(rec.players[rec.firstPlayer].id, g.first, "the first-listed player moves first");
      const winnerId = rec.winner === "draw" || rec.winner === null ? null : rec.players[rec.winner].id;
      assert.equal(g.outcome, winnerId === null ? "draw" : winnerId === g.first ? "first" : "second");
      for (const p of [g.first, g.second]) results.get(p)!.push(winnerId === null ? "D" : winnerId === p ? "W" : "L");
    }
    const expected = new Map(
      [...results].map(([p, rs]) => {
        let score = 0;
        let run = 0;
        for (const r of rs) {
          score += r === "W" ? (run >= 2 ? 4 : 2) : r === "D" ? 1 : 0;
          run = r === "W" ? run + 1 : 0;
        }
        return [p, { score, streak: run, games: rs.length }];
      }),
    );
    const quitter = entrants.find((e) => e.name === "Bo")!;
    assert.deepEqual(
      list.filter((g) => g.first === quitter.playerId || g.second === quitter.playerId).map((g) => g.gameId),
      withdrawnGames,
      "no pairing after withdrawing",
    );
    for (const e of entrants) assert.ok(results.get(e.playerId)!.length >= 1, `${e.name} played (Ed over WebSocket, Late after the start)`);

    const table = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as any[];
    assert.equal(table.length, 6);
    for (const row of table) {
      const want = expected.get(row.playerId)!;
      assert.deepEqual([row.score, row.streak, row.fire, row.games], [want.score, want.streak, want.streak >= 2, want.games], `row of ${row.name}`);
      assert.equal(row.withdrawn, row.playerId === quitter.playerId);
    }
    for (let i = 1; i < table.length; i++) {
      assert.ok(
        table[i - 1].score > table[i].score || (table[i - 1].score === table[i].score && table[i - 1].rating >= table[i].rating),
        "sorted by score then rating",
      );
    }
    await eventually(() => state.status === "finished" && state.pairings.length === 0, "the end, over WebSocket", 10_000);
    await eventually(
      () =>
        JSON.stringify([...state.standings].map((s: any) => [s.playerId, s.score, s.streak, s.fire, s.games])) ===
        JSON.stringify(table.map((s) => [s.playerId, s.score, s.streak, s.fire, s.games])),
      "the room's standings match REST",
    );
    await spectator.leave();
  });

  it("counts a result once and pairs each player once when several processes race to count it", async () => {
    const created = await http(base, "POST", "/api/v1/tournaments", { name: "Race arena", format: "arena", minutes: 60 });
    const id = created.json.tournament.id as string;
    for (const name of ["Ann", "Ben", "Cal", "Dee", "Eve"]) await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name });
    await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(created.json.directorToken));
    const stored = (await server.store.tournaments.getTournament(id))!;
    assert.equal(stored.arena!.games.length, 2);
    assert.equal(stored.arena!.waiting.length, 1);
    // The first game's finish as its room would report it, told to three services on one store at once (three
    // processes, each with its own queue): only compare-and-set keeps the count and the pairing single.
    const game = (await server.store.games.getGame(stored.arena!.games[0].gameId))!;
    const finished = { ...game, status: "finished" as const, winner: game.firstPlayer!, finishedAt: new Date().toISOString() };
    const processes = [0, 1].map(
      () => new TournamentService(server.store, server.gameCreation, { resolve: () => Promise.reject(new Error("no joins here")) }, base),
    );
    await Promise.all([
      server.tournaments.onGameFinished(finished),
      ...processes.map((p) => p.onGameFinished(finished)),
      ...processes.map((p) => p.onGameFinished(finished)),
    ]);
    processes.forEach((p) => p.stop());

    const after = (await server.store.tournaments.getTournament(id))!;
    const games = after.arena!.games;
    assert.equal(games.length, 3, "one new pairing: the waiting entrant with one of the first game's players");
    assert.equal(games[0].outcome, "first");
    const underWay = games.filter((g) => !g.outcome).flatMap((g) => [g.first, g.second]);
    assert.equal(new Set(underWay).size, underWay.length, "nobody is in two games at once");
    assert.deepEqual(
      [...underWay, ...after.arena!.waiting.map((w) => w.playerId)].sort(),
      after.entrants.map((e) => e.playerId).sort(),
      "everyone is playing or waiting, once",
    );
    const table = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as any[];
    assert.deepEqual(table.map((r) => r.score).sort(), [0, 0, 0, 0, 2], "the win counted once");
    assert.ok(await server.store.games.getGame(games[2].gameId), "the new pairing's game exists");
  });

  it("finishes on time after a restart, from the stored end alone", async () => {
    const created = await http(base, "POST", "/api/v1/tournaments", { name: "Restart arena", format: "arena", minutes: 60 });
    const id = created.json.tournament.id as string;
    const a = (await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ann" })).json;
    const b = (await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Ben" })).json;
    await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(created.json.directorToken));
    const gameId = (await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.games[0].gameId as string;
    await Promise.all([playSeat(base, gameId, a.playerToken, false), playSeat(base, gameId, b.playerToken, false)]);
    // Two entrants who have just met wait: neither may play the other twice in a row.
    const waiting = await waitForJson(base, `/api/v1/tournaments/${id}/games`, (j) => j.waiting.length === 2);
    assert.equal(waiting.games.length, 1);

    // A service started afresh on the same store (a restarted process) knows nothing but the stored document.
    await storeEdit(server, id, (t) => (t.arena!.endsAt = new Date(Date.now() + 300).toISOString()));
    const fresh = new TournamentService(server.store, server.gameCreation, { resolve: () => Promise.reject(new Error("no joins here")) }, base);
    try {
      await fresh.reconcile(id);
      assert.equal((await server.store.tournaments.getTournament(id))!.status, "running", "not before its end");
      await waitForJson(base, `/api/v1/tournaments/${id}`, (j) => j.status === "finished", 10_000);
    } finally {
      fresh.stop();
    }
    const standings = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as any[];
    assert.deepEqual(
      standings.map((s) => s.games),
      [1, 1],
    );
    assert.deepEqual((await http(base, "GET", `/api/v1/tournaments/${id}/games`)).json.waiting, []);
  });
});
