/**
 * Seeds through the service: a new game is dealt under rules version 4 from 128 random bits, which the game shows
 * only at the end (REST and MCP alike) as 32 hex digits; games stored with integer seeds before version 4 still
 * read and verify; a league deal drawn as an integer before version 4 is played under version 3.
 */
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commitmentOf, CURRENT_RULES_VERSION, verifyReplay, type Replay } from "../../src/engine";
import type { GameRecord } from "../../src/store/port";
import type { RunningServer } from "../../src/server";
import { connect } from "../mcp/helpers";
import { playRest } from "../support/play";
import { bootServer, http } from "../support/server";

const HEX128 = /^[0-9a-f]{32}$/;
const fixture = (dir: string, file: string) => JSON.parse(readFileSync(join(__dirname, "..", "game", "fixtures", dir, file), "utf8")) as Replay;

describe("Games: seeds of rules version 4 through the service, and integer seeds stored before it", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await bootServer();
  });
  after(async () => server.close());

  it("deals a new game from a 128-bit hex seed, shown only at the end, whose replay verifies over REST and MCP", async () => {
    assert.equal(CURRENT_RULES_VERSION, 4);
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    assert.equal(created.status, 201, created.text);
    const id = created.json.game.id as string;
    const record = (await server.store.games.getGame(id))!;
    assert.equal(record.rulesVersion, 4);
    assert.match(String(record.seed), HEX128);
    assert.equal(typeof record.seed, "string");

    const end = await playRest(server.url, id, created.json.playerToken as string);
    assert.equal(end.status, "finished");
    assert.equal(end.reveal.seed, record.seed);
    assert.equal(end.reveal.commitment, commitmentOf(end.reveal.seed as string, end.reveal.salt as string));
    const replay = await http(server.url, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.json.seed, record.seed);
    assert.equal(replay.json.rulesVersion, 4);
    assert.deepEqual(verifyReplay(replay.json), { ok: true });

    const mcp = await connect(server.url);
    try {
      const viaMcp = await mcp.ok("replay", { game_id: id });
      assert.equal(viaMcp.seed, record.seed);
      assert.deepEqual(verifyReplay(viaMcp), { ok: true });
    } finally {
      await mcp.close();
    }
  });

  it("reads and verifies a game stored with an integer seed under version 3", async () => {
    const old = fixture("rules-v3", "mutators-resigned.json");
    const at = "2026-01-01T00:00:00.000Z";
    const seat = (s: "A" | "B") => ({ playerId: `p_${s}`, name: old.players[s], kind: "human" as const, champion: old.champions[s] });
    const id = "g_stored_v3";
    await server.store.games.createGame({
      id,
      ruleset: old.ruleset,
      rulesVersion: 3,
      opponent: "friend",
      public: true,
      turnSeconds: 120,
      seed: old.seed,
      salt: old.salt,
      commitment: old.commitment,
      status: "finished",
      seats: { A: seat("A"), B: seat("B") },
      firstPlayer: old.firstPlayer,
      moveCount: old.moveCount,
      score: old.score,
      winner: old.winner,
      decidedBy: old.decidedBy,
      createdAt: at,
      updatedAt: at,
    });
    const actions = [...old.moves.map((m) => ({ kind: "place" as const, card: m.card, square: m.square })), ...old.endings.map((e) => e.action)];
    await server.store.games.commitGames([{ gameId: id, actions: actions.map((action, index) => ({ gameId: id, index, action, at })), patch: {} }]);

    const game = await http(server.url, "GET", `/api/v1/games/${id}`);
    assert.equal(game.status, 200, game.text);
    assert.equal(game.json.reveal.seed, old.seed);
    const replay = await http(server.url, "GET", `/api/v1/games/${id}/replay`);
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.json.seed, old.seed);
    assert.equal(typeof replay.json.seed, "number");
    assert.deepEqual(verifyReplay(replay.json), { ok: true });
  });

  it("plays a league deal under the version its seed was drawn for: an integer seed under 3, a hex seed under 4", async () => {
    const player = (name: string) => ({ playerId: `p_${name}`, name, kind: "bot" as const, tokenHash: "0".repeat(64) });
    const league = { leagueId: "l_seeds", ruleset: "classic" as const, turnSeconds: 60 };
    await server.gameCreation.createForLeague("g_league_int", { ...league, seed: 123456 }, player("one"), player("two"));
    await server.gameCreation.createForLeague("g_league_hex", { ...league, seed: "0123456789abcdef0123456789abcdef" }, player("one"), player("two"));
    const [int, hex] = (await Promise.all([server.store.games.getGame("g_league_int"), server.store.games.getGame("g_league_hex")])) as GameRecord[];
    assert.deepEqual([int.rulesVersion, int.seed], [3, 123456]);
    assert.deepEqual([hex.rulesVersion, hex.seed], [4, "0123456789abcdef0123456789abcdef"]);
  });
});
