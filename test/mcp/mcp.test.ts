import { strict as assert } from "node:assert";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { startReceiver, testCert, type Receiver } from "../events/helpers";
import { bootServer, http } from "../support/server";
import { playOpening } from "../support/play";
import { connect, playOneMove, playToTheEnd, type McpTestClient } from "./helpers";

const TOOL_NAMES = [
  "create_game",
  "join_game",
  "quick_match",
  "quick_match_poll",
  "move",
  "resign",
  "rematch",
  "get_game",
  "sync",
  "replay",
  "review",
  "player_profile",
  "list_games",
  "player_games",
  "player_ratings",
  "list_bots",
  "create_tournament",
  "join_tournament",
  "start_tournament",
  "withdraw_from_tournament",
  "list_tournaments",
  "get_tournament",
  "tournament_standings",
  "tournament_games",
  "tournament_trf",
  "list_leagues",
  "get_league",
  "league_standings",
  "league_games",
  "log_head",
  "log_key",
  "log_inclusion_proof",
  "log_consistency_proof",
  "log_entries",
];

describe("Integration: MCP", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let mcp: McpTestClient;

  before(async () => {
    // Loopback callbacks are allowed and the receiver's self-signed certificate is trusted, for the
    // webhook test only; everything stays on 127.0.0.1.
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [50, 100] });
    mcp = await connect(server.url);
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  it("lists the sixteen game, player and bot tools, the nine tournament tools, the four league tools and the five public log tools with their input schemas when a client connects", async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
    const move = tools.find((t) => t.name === "move")!;
    assert.deepEqual([...(move.inputSchema.required ?? [])].sort(), ["game_id", "move", "player_token"]);
    assert.equal(tools.find((t) => t.name === "get_game")!.annotations?.readOnlyHint, true);
  });

  it("declares an object outputSchema on every tool, and the client validates answers and refusals against it", async () => {
    const { tools } = await mcp.client.listTools();
    for (const t of tools) assert.equal(t.outputSchema?.type, "object", `${t.name} declares an outputSchema`);
    // The SDK client validates structuredContent against the listed outputSchema: these would throw on a mismatch.
    const created = await mcp.ok("create_game", { opponent: "house", level: "easy" });
    const view = await mcp.ok("sync", { game_id: created.game.id, player_token: created.playerToken, timeout: 5 });
    assert.ok(view.yourTurn, "the house answers at once, so it is the seat's turn");
    assert.ok(view.legalMoves.length > 0);
    assert.match(view.legalMoves[0].move, /^[A-Z]\d{1,2}@[a-d][1-4]$/);
    const refused = await mcp.raw("move", { game_id: created.game.id, player_token: "pt_wrong", move: view.legalMoves[0].move });
    assert.equal(refused.isError, true);
    await mcp.ok("move", { game_id: created.game.id, player_token: created.playerToken, move: view.legalMoves[0].move });
  });

  it("rematches a finished friend game through the rematch tool: offered, seen in sync, accepted with seats swapped", async () => {
    const created = await mcp.ok("create_game", { opponent: "friend", name: "Ann", seat: "A" });
    const joined = await mcp.ok("join_game", { code: created.code, name: "Bob" });
    const id = created.game.id as string;
    const tokens = { A: created.playerToken as string, B: joined.playerToken as string };
    await playOpening(server.url, id, [tokens.A, tokens.B]);
    await mcp.ok("resign", { game_id: id, player_token: tokens.B });
    assert.deepEqual(await mcp.ok("rematch", { game_id: id, player_token: tokens.B }), { rematch: { offeredBy: "B" } });
    assert.deepEqual((await mcp.ok("sync", { game_id: id, player_token: tokens.A })).rematch, { offeredBy: "B" });
    const started = await mcp.ok("rematch", { game_id: id, player_token: tokens.A });
    assert.equal(started.game.seat, "B");
    const view = await mcp.ok("sync", { game_id: started.game.id, player_token: started.game.playerToken });
    assert.equal(view.players.B.name, "Ann");
    const late = await mcp.raw("rematch", { game_id: id, player_token: tokens.B, answer: "decline" });
    assert.equal(late.isError, true);
  });

  it("serves the rules as resources and a prompt that teaches the tool loop", async () => {
    const { resources } = await mcp.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), [
      "tile-arena://rules",
      "tile-arena://rules/1",
      "tile-arena://rules/2",
      "tile-arena://rules/3",
      "tile-arena://rules/4",
    ]);
    const read = await mcp.client.readResource({ uri: "tile-arena://rules/3" });
    const rules = JSON.parse(String((read.contents[0] as { text: string }).text));
    assert.deepEqual(rules.board.edges.n, { fileStep: 0, rankStep: 1 });
    assert.equal(rules.end.tiedBoard, "first_mover");
    const rest = await (await fetch(`${server.url}/api/v1/rules/3`)).json();
    assert.deepEqual(rules, rest, "the resource is the REST body");
    const { prompts } = await mcp.client.listPrompts();
    assert.ok(prompts.some((p) => p.name === "play_tile_arena"));
    const prompt = await mcp.client.getPrompt({ name: "play_tile_arena", arguments: { opponent: "quick" } });
    const text = (prompt.messages[0].content as { text: string }).text;
    assert.match(text, /legalMoves/);
    assert.match(text, /quick_match/);
    assert.match(text, /"version":4/);
  });

  it("runs a one-round swiss through the tournament tools, its game played by sync and move", async () => {
    const created = await mcp.ok("create_tournament", { name: "Mcp cup", rounds: 1 });
    const id = created.tournament.id as string;
    const ann = await mcp.ok("join_tournament", { tournament_id: id, name: "Ann" });
    const ben = await mcp.ok("join_tournament", { tournament_id: id, name: "Ben" });
    assert.equal((await mcp.ok("start_tournament", { tournament_id: id, director_token: created.directorToken })).status, "running");
    const gameId = (await mcp.ok("tournament_games", { tournament_id: id })).rounds[0].games[0].gameId as string;
    await Promise.all([playToTheEnd(mcp, gameId, ann.playerToken), playToTheEnd(mcp, gameId, ben.playerToken)]);
    for (let i = 0; i < 100 && (await mcp.ok("get_tournament", { tournament_id: id })).status !== "finished"; i++) await new Promise((r) => setTimeout(r, 50));
    const table = await mcp.ok("tournament_standings", { tournament_id: id });
    assert.equal(table.status, "finished");
    assert.equal(
      table.standings.reduce((s: number, r: { score: number }) => s + r.score, 0),
      1,
    );
    assert.match((await mcp.ok("tournament_trf", { tournament_id: id })).trf, /^012 Mcp cup/);
    assert.ok((await mcp.ok("list_tournaments", {})).tournaments.some((t: { id: string }) => t.id === id));
    const refused = await mcp.raw("withdraw_from_tournament", { tournament_id: id, player_token: ann.playerToken });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /finished/);
  });

  it("reads a league, its standings and its games through the read-only league tools", async () => {
    const created = await server.leagues.create({ name: "Mcp league", ruleset: "classic", deals: 1, parallel: 1, turnSeconds: 60 });
    const id = created.league.id;
    assert.equal((await mcp.ok("get_league", { league_id: id })).name, "Mcp league");
    assert.ok((await mcp.ok("list_leagues", { limit: 5 })).leagues.some((l: { id: string }) => l.id === id));
    const table = await mcp.ok("league_standings", { league_id: id });
    assert.deepEqual([table.status, table.standings], ["open", []]);
    assert.deepEqual((await mcp.ok("league_games", { league_id: id })).deals, []);
    const refused = await mcp.raw("get_league", { league_id: "l_nosuchleague" });
    assert.equal(refused.isError, true);
  });

  it("creates and starts an arena through the same tournament tools, and refuses a bad arena body", async () => {
    const created = await mcp.ok("create_tournament", { name: "Mcp arena", format: "arena", minutes: 15 });
    assert.deepEqual([created.tournament.format, created.tournament.minutes, created.tournament.rounds], ["arena", 15, 0]);
    const id = created.tournament.id as string;
    await mcp.ok("join_tournament", { tournament_id: id, name: "Ann" });
    await mcp.ok("join_tournament", { tournament_id: id, name: "Ben" });
    const started = await mcp.ok("start_tournament", { tournament_id: id, director_token: created.directorToken });
    assert.equal(started.status, "running");
    assert.ok(started.endsAt);
    // Entries stay open while an arena runs.
    await mcp.ok("join_tournament", { tournament_id: id, name: "Cal" });
    const games = await mcp.ok("tournament_games", { tournament_id: id });
    assert.equal(games.games.length, 1);
    assert.deepEqual(games.waiting.length, 1);
    const table = await mcp.ok("tournament_standings", { tournament_id: id });
    assert.deepEqual(
      table.standings.map((r: { games: number; fire: boolean }) => [r.games, r.fire]),
      [
        [0, false],
        [0, false],
        [0, false],
      ],
    );
    for (const bad of [
      { name: "No length", format: "arena" },
      { name: "Both", format: "arena", minutes: 5, rounds: 2 },
      { name: "Swiss", minutes: 5 },
    ]) {
      const refused = await mcp.raw("create_tournament", bad);
      assert.equal(refused.isError, true, JSON.stringify(bad));
    }
  });

  it("plays a full game against the house when sync and move are looped, then serves its replay and record", async () => {
    const created = await mcp.ok("create_game", { opponent: "house", level: "easy", name: "Mcp Agent" });
    assert.equal(created.game.status, "active");
    assert.match(created.playerToken, /^pt_/);
    const final = await playToTheEnd(mcp, created.game.id, created.playerToken);
    assert.equal(final.status, "finished");
    assert.ok(final.replayUrl);

    const replay = await mcp.ok("replay", { game_id: created.game.id });
    assert.equal(replay.id, created.game.id);
    assert.equal(replay.moves.length, replay.moveCount);
    assert.ok(["A", "B", "draw"].includes(replay.winner));
    const record = await mcp.ok("get_game", { game_id: created.game.id });
    assert.equal(record.status, "finished");
    assert.deepEqual(
      record.moves,
      replay.moves.map((m: { notation: string }) => m.notation),
    );
    const review = await mcp.ok("review", { game_id: created.game.id });
    assert.ok(review && typeof review === "object");
    const profile = await mcp.ok("player_profile", { player_id: created.player.id });
    assert.equal(profile.player.id, created.player.id);
    const history = await mcp.ok("player_ratings", { player_id: created.player.id });
    assert.deepEqual(
      history.ratings.map((r: { gameId: string; rating: number }) => [r.gameId, r.rating]),
      [[created.game.id, profile.player.rating]],
    );
  });

  it("lists a registered bot with its description, and never its key or its owner's contact, through list_bots", async () => {
    const reg = await http(server.url, "POST", "/api/v1/bots", { name: "Mcp listed", owner: "owner@example.org", description: "Plays the corners first" });
    const { bots } = await mcp.ok("list_bots", { limit: 100 });
    const listed = bots.find((b: { id: string }) => b.id === reg.json.bot.id);
    assert.equal(listed.description, "Plays the corners first");
    const text = JSON.stringify(bots);
    assert.ok(!text.includes(reg.json.key) && !text.includes("owner@example.org") && !/keyHash/.test(text));
  });

  it("refuses a move with code unauthorized when the player token is wrong, and keeps the session usable", async () => {
    const created = await mcp.ok("create_game", { opponent: "house" });
    const r = await mcp.raw("move", { game_id: created.game.id, player_token: "pt_not-the-right-one", move: "E7@b3" });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.code, "unauthorized");
    assert.equal(JSON.parse(r.content[0].text).code, "unauthorized");
    assert.equal((await mcp.ok("get_game", { game_id: created.game.id })).id, created.game.id);
  });

  it("answers isError with code bad_request when the arguments break the schema or the replay is early", async () => {
    const bad = await mcp.raw("sync", { game_id: "g", timeout: 99 });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.code, "bad_request");
    assert.match(bad.structuredContent.detail, /timeout/);
    const created = await mcp.ok("create_game", { opponent: "house" });
    const early = await mcp.raw("replay", { game_id: created.game.id });
    assert.equal(early.structuredContent.code, "game_not_finished");
  });

  it("returns the nine events when events/list is called", async () => {
    const out = await mcp.method("events/list", {});
    assert.deepEqual(out.events.map((e: { name: string }) => e.name).sort(), [
      "challenge.played",
      "game.finished",
      "game.move",
      "game.started",
      "game.turn",
      "league.finished",
      "tournament.finished",
      "tournament.paired",
      "tournament.started",
    ]);
  });

  it("answers JSON-RPC -32015 with data.reason not_https when events/subscribe names a non-https callback", async () => {
    const created = await mcp.ok("create_game", { opponent: "house" });
    await assert.rejects(
      mcp.method("events/subscribe", {
        name: "game.move",
        arguments: { game_id: created.game.id },
        delivery: { mode: "webhook", url: "http://127.0.0.1:9/hook", secret: generateSecret() },
      }),
      (err: { code: number; data: { reason: string; code: string } }) => {
        assert.equal(err.code, -32015);
        assert.equal(err.data.reason, "not_https");
        assert.equal(err.data.code, "callback_refused");
        return true;
      },
    );
  });

  it("answers JSON-RPC -32602 with data.code bad_request when events/subscribe params are malformed", async () => {
    await assert.rejects(mcp.method("events/subscribe", { name: "game.nothing" }), (err: { code: number; data: { code: string } }) => {
      assert.equal(err.code, -32602);
      assert.equal(err.data.code, "bad_request");
      return true;
    });
  });

  describe("with an HTTPS receiver", () => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(async () => receiver?.close());

    it("delivers signed game.move events when subscribed over MCP to a house game", async () => {
      const created = await mcp.ok("create_game", { opponent: "house", level: "easy" });
      const gameId = created.game.id;
      const secret = generateSecret();
      const delivery = { mode: "webhook", url: receiver.url, secret };
      const sub = await mcp.method("events/subscribe", { name: "game.move", arguments: { game_id: gameId }, delivery });
      assert.match(sub.id, /^sub_/);
      assert.ok(Date.parse(sub.refreshBefore) > Date.now());
      assert.equal(receiver.received[0]?.json?.type, "verification");

      // The house may move first: sync waits until it is this seat's turn.
      const view = await mcp.ok("sync", { game_id: gameId, player_token: created.playerToken, since: 0, timeout: 10 });
      assert.equal(view.yourTurn, true);
      await playOneMove(mcp, gameId, created.playerToken, view);
      await receiver.waitFor(1, 10_000);
      const first = receiver.events()[0];
      assert.equal(first.json.name, "game.move");
      assert.equal(first.json.data.game_id, gameId);
      assert.equal(typeof first.json.data.move_index, "number");
      assert.equal(first.headers["x-mcp-subscription-id"], sub.id);
      assert.doesNotThrow(() => new Webhook(secret).verify(first.raw, first.headers));
      assert.throws(() => new Webhook(generateSecret()).verify(first.raw, first.headers));

      const gone = await mcp.method("events/unsubscribe", { id: sub.id, name: "game.move", arguments: { game_id: gameId }, delivery: { url: receiver.url } });
      assert.equal(gone.ok, true);
    });
  });

  it("carries the mcp RateLimit fields and refuses requests without a session", async () => {
    const init = await http(server.url, "POST", "/mcp", { jsonrpc: "2.0", id: 1, method: "tools/list" }, { accept: "application/json, text/event-stream" });
    assert.equal(init.status, 400);
    assert.match(init.headers.get("ratelimit") ?? "", /^"mcp"; r=\d+; t=\d+$/);
    assert.match(init.headers.get("ratelimit-policy") ?? "", /^"mcp"; q=\d+; w=60/);
    const unknown = await http(
      server.url,
      "POST",
      "/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { "mcp-session-id": "nope", accept: "application/json, text/event-stream" },
    );
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, -32001);
  });
});
