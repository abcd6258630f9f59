/**
 * Names hold no control characters, wherever a name is taken (tournaments, leagues, bots, players, clubs):
 * a line break is refused as a bad request. A TRF export stays one record per line even for a name stored
 * before that refusal existed.
 */
import { strict as assert } from "node:assert";
import { CommunityAdmin } from "../../src/services/communities";
import type { RunningServer } from "../../src/server";
import { exportTrf, parseTrf } from "../../src/services/tournaments/trf";
import { SqliteStore } from "../../src/store/sqlite";
import { bootServer, http } from "../support/server";

/** A name that, written as it is into a TRF file, adds a second XXR line and a third player record. */
const INJECTED = "Spring open\nXXR 9\n001    3      INJECTED                          2900";

describe("Names with control characters", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let base: string;
  before(async () => {
    server = await bootServer();
    base = server.url;
  });
  after(async () => server?.close());

  const refused = (r: { status: number; json: { type?: string; detail?: string } }, what: string) => {
    assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.json)}`);
    assert.match(r.json.type ?? "", /bad_request/);
    assert.match(r.json.detail ?? "", /control characters/);
  };

  it("are refused as a bad request by every operation that takes a name", async () => {
    refused(await http(base, "POST", "/api/v1/tournaments", { name: INJECTED, rounds: 3 }), "swiss");
    refused(await http(base, "POST", "/api/v1/tournaments", { name: "Arena\r\nXXR 9", format: "arena", minutes: 5 }), "arena");
    refused(await http(base, "POST", "/api/v1/leagues", { name: "League\u0000", deals: 1 }), "league");
    refused(await http(base, "POST", "/api/v1/bots", { name: "Bot\tOne" }), "bot");
    refused(await http(base, "POST", "/api/v1/games", { opponent: "house", name: "Ada\u2028Lovelace" }), "player's name on a game");
    refused(await http(base, "POST", "/api/v1/games", { opponent: "house", name: "evil\u202Etxt.exe" }), "a bidirectional override");
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Spring open", rounds: 3 });
    assert.equal(t.status, 201, t.text);
    refused(await http(base, "POST", `/api/v1/tournaments/${t.json.tournament.id}/join`, { name: "Ada\nBo" }), "entrant");
    // Names as people write them still pass, whatever their script.
    assert.equal((await http(base, "POST", "/api/v1/games", { opponent: "house", name: "Zoë 李 🦊" })).status, 201);
  });

  it("are refused for clubs and communities by the operator command", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    await store.init();
    try {
      const admin = new CommunityAdmin(store);
      await assert.rejects(admin.create("club", "Chess\nclub"), (e: { code?: string }) => e.code === "bad_request");
      assert.equal((await admin.create("club", "Chess club")).name, "Chess club");
    } finally {
      await store.close();
    }
  });

  it("stored before the refusal, are exported to TRF on one line: one XXR line, one 001 record per entrant", async () => {
    const t = await http(base, "POST", "/api/v1/tournaments", { name: "Before", rounds: 2 });
    const id = t.json.tournament.id as string;
    for (const name of ["Ada", "Bo"]) assert.equal((await http(base, "POST", `/api/v1/tournaments/${id}/join`, { name })).status, 201);
    const stored = (await server.store.tournaments.getTournament(id))!;
    assert.ok(await server.store.tournaments.replaceTournamentIf({ ...stored, name: INJECTED, version: stored.version + 1 }));
    const trf = await http(base, "GET", `/api/v1/tournaments/${id}/trf`);
    assert.equal(trf.status, 200);
    const lines = trf.text.trimEnd().split("\n");
    assert.deepEqual(
      lines.map((l) => l.slice(0, 3)),
      ["012", "062", "XXR", "001", "001"],
    );
    assert.equal(parseTrf(trf.text).rounds, 2);
    assert.equal(parseTrf(trf.text).name, "Spring open XXR 9 001 3 INJECTED 2900");
  });

  it("in the pure export: every control character becomes a space", () => {
    const text = exportTrf(
      "A\r\nB\tC\u0085D\u2029E",
      1,
      [
        { id: "a", rating: 1500 },
        { id: "b", rating: 1400 },
      ],
      [],
    );
    assert.equal(text.split("\n")[0], "012 A B C D E");
    assert.equal(text.trimEnd().split("\n").length, 5);
  });
});
