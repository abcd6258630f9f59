/**
 * Profiles and community leaderboards on a real server over a SQLite file that the operators' CLI writes
 * to at the same time: guests play real house games, one claims an account, clubs and communities rank
 * the results.
 *
 * In the slow suite (test/suites/index.cjs): end to end by nature, its time goes to the CLI, started as a
 * process (through tsx) for each of nine commands, and to whole house games; 23 to 51 s in runs of the fast
 * suite on the 2-core machine.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RunningServer } from "../../src/server";
import { playToEnd } from "../agents/play";
import { player } from "../store/fixtures";
import { playOpening } from "../support/play";
import { bearer, bootServer, http } from "../support/server";

const run = promisify(execFile);

describe("Communities", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let base: string;
  let dir: string;
  let database: string;

  /** The documented CLI, run as operators run it (npm run communities -- ...). */
  const cli = async (...args: string[]) => {
    const out = await run(process.execPath, ["--import", "tsx", "scripts/communities.ts", ...args], {
      env: { ...process.env, DATABASE: database, LOG_LEVEL: "silent" },
    });
    return out.stdout.trim();
  };

  /** A guest's house game: played to the end, or resigned after the opening (one card each) for a quick loss. */
  async function guestGame(name: string, how: "play" | "resign", player?: { id: string; secret: string }) {
    const g = await http(base, "POST", "/api/v1/games", { opponent: "house", level: "easy", name, ...(player ? { player } : {}) });
    assert.equal(g.status, 201, g.text);
    if (how === "play") await playToEnd(base, g.json.game.id, g.json.playerToken);
    else await playOpening(base, g.json.game.id, [g.json.playerToken]);
    if (how === "resign") assert.equal((await http(base, "POST", `/api/v1/games/${g.json.game.id}/resign`, undefined, bearer(g.json.playerToken))).status, 200);
    return { id: g.json.player.id as string, secret: (player?.secret ?? g.json.player.secret) as string };
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "communities-"));
    database = join(dir, "arena.sqlite");
    server = await bootServer({ database });
    base = server.url;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("moves a guest to an account: old id answers with the account and movedFrom", async () => {
    const guest = await guestGame("Guesty", "play");
    await guestGame("Guesty", "resign", guest);
    const before = (await http(base, "GET", `/api/v1/players/${guest.id}`)).json;
    assert.equal(before.player.games, 2);
    assert.ok(before.player.favoriteChampion?.name, "a champion is drawn for every seat");

    const wrong = await http(base, "POST", `/api/v1/players/${guest.id}/claim`, { secret: "ps_wrongwrongwrong" });
    assert.equal(wrong.status, 401);
    const claimed = await http(base, "POST", `/api/v1/players/${guest.id}/claim`, { secret: guest.secret, name: "Claimed" });
    assert.equal(claimed.status, 201, claimed.text);
    assert.ok(claimed.headers.get("ratelimit"));
    const account = claimed.json.account;
    assert.notEqual(account.id, guest.id);
    assert.match(account.secret, /^ps_/);
    assert.equal(claimed.json.movedFrom, guest.id);

    const old = await http(base, "GET", `/api/v1/players/${guest.id}`);
    assert.equal(old.status, 200);
    assert.equal(old.json.movedFrom, guest.id);
    assert.equal(old.json.player.id, account.id);
    assert.equal(old.json.player.name, "Claimed");
    assert.equal(old.json.player.games, 2);
    assert.equal(old.json.player.rating, before.player.rating);
    assert.deepEqual(old.json.player.favoriteChampion, before.player.favoriteChampion);
    assert.equal((await http(base, "POST", `/api/v1/players/${guest.id}/claim`, { secret: guest.secret })).json.code, "conflict");

    // The account plays on with its own secret; the result lands on the account.
    await guestGame("Claimed", "resign", account);
    assert.equal((await http(base, "GET", `/api/v1/players/${account.id}`)).json.player.games, 3);
  });

  it("ranks club and community members by rating, paginated, with places on profiles", async () => {
    const winnerish = await guestGame("Ada", "play");
    const loser = await guestGame("Bo", "resign");
    const loser2 = await guestGame("Cy", "resign");
    await guestGame("Cy", "resign", loser2);

    const club = JSON.parse(await cli("create", "--kind", "club", "--name", "Chess Club"));
    assert.equal(club.kind, "club");
    const community = JSON.parse(await cli("create", "--kind", "community", "--name", "Discord Arena"));
    for (const p of [loser2, winnerish, loser]) await cli("add", club.id, p.id);
    await cli("add", community.id, loser.id);
    await cli("add", community.id, loser2.id);
    await assert.rejects(cli("add", club.id, "P-NOSUCH"), /not_found/);
    assert.match(await cli("list", "--kind", "club"), new RegExp(club.id));

    const board = await http(base, "GET", `/api/v1/clubs/${club.id}`);
    assert.equal(board.status, 200, board.text);
    assert.match(board.headers.get("ratelimit-policy") ?? "", /q=120/);
    assert.equal(board.json.name, "Chess Club");
    assert.equal(board.json.total, 3);
    const ratings = board.json.standings.map((s: any) => s.rating);
    assert.deepEqual(
      ratings,
      [...ratings].sort((a: number, b: number) => b - a),
    );
    assert.deepEqual(
      board.json.standings.map((s: any) => s.place),
      [1, 2, 3],
    );
    for (const s of board.json.standings) {
      const profile = (await http(base, "GET", `/api/v1/players/${s.player.id}`)).json;
      assert.equal(s.rating, profile.player.rating);
      assert.equal(s.games, profile.player.games);
      assert.equal(s.recentForm, profile.player.recentForm);
      assert.deepEqual(profile.clubs.find((c: any) => c.id === club.id)?.place, s.place);
    }
    const cy = board.json.standings.find((s: any) => s.player.id === loser2.id);
    assert.equal(cy.games, 2);
    assert.equal(cy.recentForm, "LL");

    const page = await http(base, "GET", `/api/v1/clubs/${club.id}?limit=1&offset=1`);
    assert.equal(page.json.standings.length, 1);
    assert.equal(page.json.standings[0].place, 2);
    assert.equal(page.json.standings[0].player.id, board.json.standings[1].player.id);

    const clubs = await http(base, "GET", "/api/clubs");
    assert.ok(clubs.json.clubs.some((c: any) => c.id === club.id && c.members === 3 && c.leaders.length === 3));
    assert.ok(!clubs.json.clubs.some((c: any) => c.id === community.id));
    const communities = await http(base, "GET", "/api/v1/communities?limit=10");
    assert.deepEqual(
      communities.json.communities.map((c: any) => c.id),
      [community.id],
    );
    const cboard = await http(base, "GET", `/api/v1/communities/${community.id}`);
    assert.equal(cboard.json.standings.length, 2);
    assert.equal((await http(base, "GET", `/api/v1/clubs/${community.id}`)).status, 404);
    assert.equal((await http(base, "GET", `/api/v1/clubs/${club.id}?limit=0`)).json.code, "bad_request");

    await cli("remove", club.id, loser.id);
    assert.equal((await http(base, "GET", `/api/v1/clubs/${club.id}`)).json.total, 2);
  });

  it("pages the player leaderboard with every listed player once and places running on across pages", async () => {
    // Profiles without games and guests that moved, interleaved by rating with listed ones (ties included),
    // besides the profiles the tests above made by playing.
    for (let i = 0; i < 30; i++) {
      const rating = 1300 + 17 * (i % 13) + (i % 3);
      const over = i % 3 === 0 ? { games: 0 } : i % 5 === 1 ? { games: 4, movedTo: "LB-L02" } : { games: 1 + (i % 4) };
      await server.store.players.createPlayer(player(`LB-${String(i).padStart(2, "0")}`, rating, over));
    }
    const everyone = await server.store.players.rankPlayers(undefined, 10_000, 0);
    const listed = everyone.filter((p) => p.games > 0 && !p.movedTo).map((p) => p.id);
    assert.ok(listed.length > 12 && everyone.length - listed.length > 10, `${listed.length} of ${everyone.length} listed`);

    const limit = 4;
    const seen: Array<{ id: string; place: number }> = [];
    for (let offset = 0; ; offset += limit) {
      const page = await http(base, "GET", `/api/v1/players?limit=${limit}&offset=${offset}`);
      assert.equal(page.status, 200, page.text);
      const rows = page.json.standings as Array<{ place: number; player: { id: string } }>;
      // Full while more listed players follow: a short page is the last one.
      assert.equal(rows.length, Math.min(limit, Math.max(0, listed.length - offset)), `page at offset ${offset}`);
      seen.push(...rows.map((r) => ({ id: r.player.id, place: r.place })));
      if (rows.length < limit) break;
    }
    assert.deepEqual(
      seen.map((r) => r.id),
      listed,
    );
    assert.deepEqual(
      seen.map((r) => r.place),
      listed.map((_, i) => i + 1),
    );
  });
});
