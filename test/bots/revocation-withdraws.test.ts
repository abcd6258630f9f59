/**
 * Revoking a bot's key on a real server withdraws everything that would seat the bot later: a quick-match ticket
 * it queued (also one the revocation missed, which the queue refuses at pairing), its entry in a league not yet
 * started (it is in no schedule), its entry in a running league (withdrawn, its deals void, no later game made
 * for it, its league token opening nothing), its tournament entry, and its games not yet played (aborted).
 */
import { strict as assert } from "node:assert";
import type { RunningServer } from "../../src/server";
import { bearer, bootServer, http } from "../support/server";
import { playSeat, type DealRow } from "../leagues/play";

describe("Integration: revoking a bot key withdraws what is pending", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => (server = await bootServer({ houseDelayMs: 0 })));
  after(async () => server?.close());

  const register = async (name: string) => {
    const r = await http(server.url, "POST", "/api/v1/bots", { name });
    assert.equal(r.status, 201, r.text);
    return r.json as { key: string; bot: { id: string } };
  };
  const revoke = async (key: string) => assert.equal((await http(server.url, "DELETE", "/api/v1/bots/me", undefined, bearer(key))).status, 200);
  const quick = (headers: Record<string, string>, body: object = {}) =>
    http(server.url, "POST", "/api/v1/games/quick-match", { ruleset: "classic", ...body }, headers);
  const poll = (ticket: string) => http(server.url, "GET", `/api/v1/games/quick-match/${ticket}`);

  it("withdraws a queued quick-match ticket: the next player is paired with someone else, not the revoked bot", async () => {
    const gone = await register("Revoked queuer");
    const other = await register("Patient queuer");
    const queued = await quick(bearer(gone.key));
    assert.equal(queued.status, 202, queued.text);
    await revoke(gone.key);

    const next = await quick(bearer(other.key));
    assert.equal(next.status, 202, `paired with the revoked bot: ${next.text}`);
    const refused = await poll(queued.json.ticket);
    assert.equal(refused.status, 401, refused.text);
    assert.equal(refused.json.playerToken, undefined);

    const guest = await quick({}, { name: "Guest" });
    assert.equal(guest.status, 200, guest.text);
    const ids = [guest.json.game.players.A.id, guest.json.game.players.B.id];
    assert.ok(ids.includes(other.bot.id) && !ids.includes(gone.bot.id), `paired ${ids.join(", ")}`);
    assert.equal((await poll(next.json.ticket)).json.status, "matched");
  });

  it("never seats a bot whose ticket the revocation missed: the queue checks the key when it pairs", async () => {
    const gone = await register("Missed queuer");
    const other = await register("Second in line");
    const queued = await quick(bearer(gone.key));
    assert.equal(queued.status, 202, queued.text);
    // Revoked in the store alone, as by a process whose withdrawal never reached the queue.
    await server.store.bots.updateBot(gone.bot.id, { revokedAt: new Date().toISOString() });

    const next = await quick(bearer(other.key));
    assert.equal(next.status, 202, `paired with the revoked bot: ${next.text}`);
    assert.equal((await poll(queued.json.ticket)).status, 401);
    const guest = await quick({}, { name: "Guest two" });
    assert.equal(guest.status, 200, guest.text);
    assert.ok([guest.json.game.players.A.id, guest.json.game.players.B.id].includes(other.bot.id));
  });

  const league = async (name: string, bots: { key: string }[]) => {
    const created = await http(server.url, "POST", "/api/v1/leagues", { name, deals: 1, turnSeconds: 60 });
    assert.equal(created.status, 201, created.text);
    const tokens: string[] = [];
    for (const b of bots) {
      const j = await http(server.url, "POST", `/api/v1/leagues/${created.json.league.id}/join`, undefined, bearer(b.key));
      assert.equal(j.status, 201, j.text);
      tokens.push(j.json.playerToken as string);
    }
    return { id: created.json.league.id as string, director: created.json.directorToken as string, tokens };
  };
  const deals = async (id: string) => (await http(server.url, "GET", `/api/v1/leagues/${id}/games`)).json.deals as DealRow[];

  it("drops a bot revoked before its league starts: it is in none of the league's deals", async () => {
    const bots = [await register("Stays one"), await register("Stays two"), await register("Leaves early")];
    const l = await league("Revoked before the start", bots);
    await revoke(bots[2].key);
    const started = await http(server.url, "POST", `/api/v1/leagues/${l.id}/start`, undefined, bearer(l.director));
    assert.equal(started.status, 200, started.text);
    assert.deepEqual(
      started.json.entrants.map((e: { playerId: string }) => e.playerId),
      [bots[0].bot.id, bots[1].bot.id],
    );
    const schedule = await deals(l.id);
    assert.equal(schedule.length, 1);
    assert.ok(schedule.every((d) => d.a !== bots[2].bot.id && d.b !== bots[2].bot.id));
  });

  it("withdraws a bot from a running league: its games are void, no later game seats it, and its league token opens nothing", async () => {
    const bots = [await register("League one"), await register("League two"), await register("League quitter")];
    const quitter = bots[2].bot.id;
    const l = await league("Revoked while running", bots);
    assert.equal((await http(server.url, "POST", `/api/v1/leagues/${l.id}/start`, undefined, bearer(l.director))).status, 200);
    // Three entrants, one deal each pair, one deal at a time: the other deals wait for the first.
    const before = await deals(l.id);
    const mine = before.filter((d) => d.a === quitter || d.b === quitter);
    assert.equal(mine.length, 2);
    const released = mine.find((d) => d.released);
    const later = mine.filter((d) => !d.released);
    await revoke(bots[2].key);

    const head = (await http(server.url, "GET", `/api/v1/leagues/${l.id}`)).json;
    assert.deepEqual(
      head.entrants.map((e: { withdrawn: boolean }) => e.withdrawn),
      [false, false, true],
    );
    let after: DealRow[] = [];
    for (let i = 0; i < 100; i++) {
      after = await deals(l.id);
      if (after.filter((d) => d.a === quitter || d.b === quitter).every((d) => d.games.every((g) => g.outcome === "void"))) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const d of after.filter((x) => x.a === quitter || x.b === quitter)) {
      assert.deepEqual(
        d.games.map((g) => g.outcome),
        ["void", "void"],
        `deal ${d.index}`,
      );
    }
    // Its released games were aborted unplayed; its later deals got no game at all.
    for (const g of released?.games ?? []) {
      const game = await http(server.url, "GET", `/api/v1/games/${g.gameId}`);
      assert.equal(game.json.status, "finished");
      assert.equal(game.json.decidedBy, "aborted");
    }
    for (const g of later.flatMap((d) => d.games))
      assert.equal((await http(server.url, "GET", `/api/v1/games/${g.gameId}`)).status, 404, `game ${g.gameId} was made`);
    // The league token moves in none of its games.
    for (const g of mine.flatMap((d) => d.games)) {
      const moved = await http(server.url, "POST", `/api/v1/games/${g.gameId}/moves`, { move: "E7@b3" }, bearer(l.tokens[2]));
      assert.ok([404, 409].includes(moved.status), `move ${moved.status}: ${moved.text}`);
    }

    // The two who stay play their deal, and the league ends.
    const theirs = after.find((d) => d.a !== quitter && d.b !== quitter)!;
    assert.ok(theirs.released);
    const tokenOf = new Map([
      [bots[0].bot.id, l.tokens[0]],
      [bots[1].bot.id, l.tokens[1]],
    ]);
    for (const g of theirs.games)
      await Promise.all([playSeat(server.url, g.gameId, tokenOf.get(g.first)!), playSeat(server.url, g.gameId, tokenOf.get(g.second)!)]);
    for (let i = 0; i < 100 && (await http(server.url, "GET", `/api/v1/leagues/${l.id}`)).json.status !== "finished"; i++)
      await new Promise((r) => setTimeout(r, 50));
    const end = (await http(server.url, "GET", `/api/v1/leagues/${l.id}`)).json;
    assert.equal(end.status, "finished");
    assert.deepEqual(end.progress, { deals: 3, dealsPlayed: 3, games: 6, gamesPlayed: 6 });
  });

  it("withdraws a bot's tournament entry and aborts the friend game it waits in", async () => {
    const gone = await register("Tournament quitter");
    const t = await http(server.url, "POST", "/api/v1/tournaments", { name: "Revoked entrant", rounds: 1 });
    assert.equal(t.status, 201, t.text);
    const id = t.json.tournament.id as string;
    assert.equal((await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { player: { id: gone.bot.id, secret: gone.key } })).status, 201);
    assert.equal((await http(server.url, "POST", `/api/v1/tournaments/${id}/join`, { name: "Person" })).status, 201);
    const waiting = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" }, bearer(gone.key));
    assert.equal(waiting.status, 201, waiting.text);

    await revoke(gone.key);
    const after = (await http(server.url, "GET", `/api/v1/tournaments/${id}`)).json;
    assert.deepEqual(
      after.entrants.map((e: { withdrawn: boolean }) => e.withdrawn),
      [true, false],
    );
    const game = (await http(server.url, "GET", `/api/v1/games/${waiting.json.game.id}`)).json;
    assert.equal(game.status, "finished");
    assert.equal(game.decidedBy, "aborted");
  });
});
