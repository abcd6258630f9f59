/**
 * Join limits: tournaments joined per minute from one address and by one player profile (express-rate-limit,
 * TOURNAMENT_JOINS_PER_ADDRESS / _PER_PLAYER), and the entrant cap (TOURNAMENT_MAX_ENTRANTS, or lower per
 * tournament). Refusals are problem documents and change nothing.
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { connect } from "../mcp/helpers";
import { bootServer, http } from "../support/server";

describe("Tournament join limits", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;

  before(async () => {
    server = await bootServer({ rateLimitScale: 1, tournamentJoinsPerAddress: 3, tournamentJoinsPerPlayer: 2, tournamentMaxEntrants: 4 });
    base = server.url;
  });
  after(async () => {
    await server?.close();
  });

  const tournament = async (extra: Record<string, unknown> = {}) => {
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Limits", rounds: 1, ...extra });
    assert.equal(t.status, 201, t.text);
    return t.json.tournament.id as string;
  };
  const join = (id: string, body: Record<string, unknown>) => http(base, "POST", `/api/v1/tournaments/${id}/join`, body);
  const entrants = async (id: string) => (await http(base, "GET", `/api/v1/tournaments/${id}`)).json.entrants.length as number;
  const isProblem = (r: Awaited<ReturnType<typeof http>>, status: number, type: string) => {
    assert.equal(r.status, status, r.text);
    assert.match(r.headers.get("content-type") ?? "", /application\/problem\+json/);
    assert.match(r.json.type, new RegExp(type));
  };

  it("caps the entrants at the server's cap, or the tournament's own lower one", async () => {
    isProblem(await http(base, "POST", "/api/v1/tournaments", { name: "Huge", rounds: 1, maxEntrants: 5 }), 400, "bad_request");
    const id = await tournament({ maxEntrants: 2 });
    assert.equal((await http(base, "GET", `/api/v1/tournaments/${id}`)).json.maxEntrants, 2);
    assert.equal((await join(id, { name: "Ann" })).status, 201);
    assert.equal((await join(id, { name: "Ben" })).status, 201);
    const full = await join(id, { name: "Cal" });
    isProblem(full, 409, "conflict");
    assert.match(full.json.detail, /full \(2 entrants\)/);
    assert.equal(await entrants(id), 2);
    assert.equal((await http(base, "GET", `/api/v1/tournaments/${await tournament()}`)).json.maxEntrants, 4, "TOURNAMENT_MAX_ENTRANTS");
  });

  it("refuses a profile past its joins per minute, then the address past its own; refused joins do not count", async () => {
    // The address joined twice above; a budget of 3 a minute is left with one more join... once the minute
    // passes. A fresh server keeps this test independent of the one before.
    await server.close();
    server = await bootServer({ rateLimitScale: 1, tournamentJoinsPerAddress: 3, tournamentJoinsPerPlayer: 2 });
    base = server.url;
    const made = await http(base, "POST", "/api/v1/games", { opponent: "house", name: "Pat" });
    assert.equal(made.status, 201, made.text);
    const pat = { id: made.json.player.id as string, secret: made.json.player.secret as string };
    const ids = [await tournament(), await tournament(), await tournament(), await tournament()];

    // Refused joins (a wrong secret, an unknown tournament) spend nothing.
    assert.equal((await join(ids[0], { player: { id: pat.id, secret: "wrong-secret-wrong-secret" } })).status, 401);
    assert.equal((await join("t_nosuchtournament", { name: "Nobody" })).status, 404);

    const first = await join(ids[0], { player: pat });
    assert.equal(first.status, 201, first.text);
    assert.match(first.headers.get("ratelimit") ?? "", /"tournament-join-player"; r=1/);
    assert.equal((await join(ids[1], { player: pat })).status, 201);
    const third = await join(ids[2], { player: pat });
    isProblem(third, 429, "rate_limited");
    assert.match(third.json.detail, /2 tournament joins per minute for this player/);
    assert.ok(Number(third.headers.get("retry-after")) > 0);
    assert.equal(await entrants(ids[2]), 0, "nothing changed");

    // The address has joined twice (the refused third did not count): one more guest join, then no more.
    assert.equal((await join(ids[2], { name: "Guest" })).status, 201);
    const over = await join(ids[3], { name: "Another" });
    isProblem(over, 429, "rate_limited");
    assert.match(over.json.detail, /3 tournament joins per minute from this address/);
    assert.equal(await entrants(ids[3]), 0);

    // MCP's join tool counts in the same store: this address has no join left there either.
    const mcp = await connect(base);
    const refused = await mcp.raw("join_tournament", { tournament_id: ids[3], name: "Over MCP" });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent?.code, "rate_limited");
    assert.equal(await entrants(ids[3]), 0);
    await mcp.client.close();
  });

  it("counts MCP joins with REST's, and gives a refused MCP join back", async () => {
    await server.close();
    server = await bootServer({ rateLimitScale: 1, tournamentJoinsPerAddress: 2, tournamentJoinsPerPlayer: 5 });
    base = server.url;
    const id = await tournament({ maxEntrants: 2 });
    const other = await tournament();
    const mcp = await connect(base);
    assert.equal((await mcp.raw("join_tournament", { tournament_id: id, name: "Ann" })).isError, undefined);
    assert.equal((await mcp.raw("join_tournament", { tournament_id: "t_nosuchtournament", name: "Nobody" })).structuredContent?.code, "not_found");
    // The refused join spent nothing: one REST join is left, then the address is at its cap over both.
    assert.equal((await join(id, { name: "Ben" })).status, 201);
    isProblem(await join(other, { name: "Cal" }), 429, "rate_limited");
    assert.equal((await mcp.raw("join_tournament", { tournament_id: other, name: "Dee" })).structuredContent?.code, "rate_limited");
    await mcp.client.close();
  });
});
