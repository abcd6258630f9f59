/**
 * Spectators watch a tournament over WebSocket: the tournament room's flat state shows the current round's
 * pairings and the standings, and follows each stored change (start, results, the end) as it happens.
 */
import { strict as assert } from "node:assert";
import { Client } from "@colyseus/sdk";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { bearer, bootServer, eventually, http } from "../support/server";

describe("Tournament room", function () {
  this.timeout(60_000);
  let server: RunningServer;

  before(async () => {
    server = await bootServer({ tournamentMaxEntrants: 3 });
  });
  after(async () => {
    await server?.close();
  });

  it("shows spectators the pairings and live standings of a running swiss", async () => {
    const base = server.url;
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Watched", rounds: 1 });
    const id = t.json.tournament.id as string;
    const entrants: { playerId: string; playerToken: string }[] = [];
    for (const name of ["Ann", "Ben", "Cal"]) entrants.push((await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name })).json);
    const full = await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name: "Dan" });
    assert.equal(full.status, 409, "TOURNAMENT_MAX_ENTRANTS is 3 here");
    assert.match(full.json.detail, /full \(3 entrants\)/);

    const room = await new Client(base).joinOrCreate("tournament", { tournamentId: id });
    const state = room.state;
    await eventually(() => state.tournamentId === id && state.standings.length === 3, "the entrants in the standings");
    assert.equal(state.status, "open");

    await http(base, "POST", `/api/v1/tournaments/${id}/start`, undefined, bearer(t.json.directorToken));
    await eventually(() => state.status === "running" && state.pairings.length === 2, "round 1's pairings");
    const game = [...state.pairings].find((p: any) => p.second !== "");
    const bye = [...state.pairings].find((p: any) => p.second === "");
    assert.ok(game.gameId && bye.first);
    const tokenOf = (playerId: string) => entrants.find((e) => e.playerId === playerId)!.playerToken;
    await Promise.all([playToEnd(base, game.gameId, tokenOf(game.first)), playToEnd(base, game.gameId, tokenOf(game.second))]);

    await eventually(() => state.status === "finished", "the end, over WebSocket", 10_000);
    const rest = (await http(base, "GET", `/api/v1/tournaments/${id}/standings`)).json.standings as any[];
    assert.deepEqual(
      [...state.standings].map((s: any) => [s.playerId, s.score, s.buchholz]),
      rest.map((s) => [s.playerId, s.score, s.buchholz]),
    );
    assert.notEqual([...state.pairings].find((p: any) => p.gameId === game.gameId).outcome, "");
    await room.leave();
  });

  it("refuses to open a room for a tournament that does not exist, or for a bad id", async () => {
    const client = new Client(server.url);
    await assert.rejects(client.joinOrCreate("tournament", { tournamentId: "t_nosuchthing1" }), /no tournament/);
    await assert.rejects(client.joinOrCreate("tournament", { tournamentId: 42 }), /join options are \{ tournamentId \}/);
    await assert.rejects(client.create("tournament", { tournamentId: "t_nosuchthing1" }), /joinOrCreate/);
  });
});
