import { strict as assert } from "node:assert";
import { Webhook } from "standardwebhooks";
import { generateSecret } from "../../src/services/events";
import type { RunningServer } from "../../src/server";
import { playRest } from "../support/play";
import { bootServer, http } from "../support/server";
import { startReceiver, testCert, type Receiver } from "./helpers";

describe("End-to-end: a whole game observed only through webhooks", function () {
  this.timeout(60_000);
  let server: RunningServer;
  let receiver: Receiver;
  before(async () => {
    server = await bootServer({ webhookAllowPrivate: true }, { webhookCa: testCert().cert, webhookRetryDelaysMs: [50, 100] });
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const subscribe = (name: string, args: Record<string, unknown>, secret: string) =>
    http(server.url, "POST", "/api/v1/games/events/subscribe", {
      name,
      arguments: args,
      delivery: { mode: "webhook", url: `${receiver.url}?${name}`, secret },
    });

  it("delivers started, every move, every turn and the finish, signed, matching the replay", async () => {
    const a = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", name: "Ann" });
    const id = a.json.game.id;
    const secret = generateSecret();
    for (const name of ["game.started", "game.move", "game.finished"]) {
      const r = await subscribe(name, { game_id: id }, secret);
      assert.equal(r.status, 201, r.text);
      assert.match(r.json.id, /^sub_/);
      assert.ok(Date.parse(r.json.refreshBefore) > Date.now());
      assert.equal(typeof r.json.truncated, "boolean");
    }
    const turnA = await subscribe("game.turn", { game_id: id, player_token: a.json.playerToken }, secret);
    assert.equal(turnA.status, 201, turnA.text);
    const b = await http(server.url, "POST", "/api/v1/games/join", { code: a.json.code, name: "Bob" });
    const turnB = await subscribe("game.turn", { game_id: id, player_token: b.json.playerToken }, secret);
    assert.equal(turnB.status, 201);

    await Promise.all([playRest(server.url, id, a.json.playerToken), playRest(server.url, id, b.json.playerToken)]);
    const replay = (await http(server.url, "GET", `/api/v1/games/${id}/replay`)).json;
    // 1 started + 16 moves + 1 finished + turns (one per move but the last, plus the first) + 2 final turns
    await receiver.waitFor(1 + 16 + 1 + 16 + 2, 10_000);
    await new Promise((r) => setTimeout(r, 200));

    const wh = new Webhook(secret);
    const events = receiver.events().filter((e) => e.json?.data?.game_id === id);
    for (const e of events) {
      const verified = wh.verify(e.raw, e.headers) as any;
      assert.equal(verified.eventId, e.headers["webhook-id"]);
      assert.match(verified.eventId, /^evt_/);
      assert.match(e.headers["x-mcp-subscription-id"], /^sub_/);
      assert.ok(!e.raw.includes(a.json.playerToken) && !e.raw.includes(b.json.playerToken));
    }
    const byName = (n: string) => events.filter((e) => e.json.name === n).map((e) => e.json);
    assert.equal(byName("game.started").length, 1);
    assert.equal(byName("game.finished").length, 1);
    const finished = byName("game.finished")[0].data;
    assert.equal(finished.winner, replay.winner);
    assert.deepEqual(finished.score, replay.score);
    assert.equal(finished.replay_url, replay.replayUrl);

    // Moves may arrive out of order: sorted by move_index they are the replay.
    const moves = byName("game.move").sort((x, y) => x.data.move_index - y.data.move_index);
    assert.deepEqual(
      moves.map((m) => m.data.move_index),
      [...Array(16).keys()],
    );
    assert.deepEqual(
      moves.map((m) => m.data.notation),
      replay.moves.map((m: any) => m.notation),
    );
    assert.deepEqual(
      moves.map((m) => m.data.board),
      replay.moves.map((m: any) => m.board),
    );
    for (const m of moves) assert.ok(!("hand" in m.data));

    const turns = byName("game.turn");
    for (const t of turns) {
      for (const f of ["game_id", "seat", "your_turn", "status", "move_count", "last_move", "score", "winner", "url"]) assert.ok(f in t.data, f);
    }
    const finals = turns.filter((t) => !t.data.your_turn);
    assert.deepEqual(finals.map((t) => t.data.seat).sort(), ["A", "B"]);
    for (const t of finals) assert.equal(t.data.status, "finished");
    assert.equal(turns.filter((t) => t.data.your_turn).length, 16);
  });

  it("fires at once when the condition already holds, and game.move starts after the moves already played", async () => {
    const g = await http(server.url, "POST", "/api/v1/games", { opponent: "house", level: "easy" });
    const id = g.json.game.id;
    await playRest(server.url, id, g.json.playerToken);
    const before = receiver.events().length;
    const secret = generateSecret();
    const fin = await subscribe("game.finished", { game_id: id }, secret);
    assert.equal(fin.status, 201);
    const mv = await subscribe("game.move", { game_id: id }, secret);
    assert.equal(mv.status, 201);
    assert.equal(mv.json.cursor, "16");
    await receiver.waitFor(before + 1);
    await new Promise((r) => setTimeout(r, 300));
    const fresh = receiver
      .events()
      .slice(before)
      .map((e) => e.json);
    assert.deepEqual(
      fresh.map((e) => e.name),
      ["game.finished"],
    );
    assert.equal(fresh[0].data.game_id, id);
  });

  it("refuses a game.turn subscription with a wrong token and a plain-http callback", async () => {
    const g = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const wrong = await subscribe("game.turn", { game_id: g.json.game.id, player_token: "pt_" + "q".repeat(43) }, generateSecret());
    assert.equal(wrong.status, 401);
    const plain = await http(server.url, "POST", "/api/v1/games/events/subscribe", {
      name: "game.finished",
      arguments: { game_id: g.json.game.id },
      delivery: { mode: "webhook", url: "http://example.com/hook", secret: generateSecret() },
    });
    assert.equal(plain.status, 422);
    assert.equal(plain.json.reason, "not_https");
    assert.equal(plain.json.code, "callback_refused");
  });
});
