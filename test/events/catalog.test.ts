import assert from "node:assert/strict";
import { ARGUMENT_SCHEMAS, DATA_SCHEMAS, EVENT_NAMES, eventCatalog } from "../../src/services/events/catalog";
import { isValidSecret, newEventId, newSubscriptionId } from "../../src/services/events/signing";
import { generateSecret, subscriptionKey } from "../../src/services/events/index";

describe("Unit: event catalog", () => {
  it("describes each of the eight events with arguments and a data schema", () => {
    const catalog = eventCatalog();
    assert.deepEqual(
      catalog.map((e) => e.name),
      [...EVENT_NAMES],
    );
    for (const e of catalog) {
      assert.ok(e.description.length > 10);
      assert.equal(e.arguments.type, "object");
      assert.equal(e.data.type, "object");
    }
  });

  it("names the arguments the spec gives each event", () => {
    const args = Object.fromEntries(eventCatalog().map((e) => [e.name, (e.arguments.required as string[]).sort()]));
    assert.deepEqual(args, {
      "game.turn": ["game_id", "player_token"],
      "game.started": ["game_id"],
      "game.move": ["game_id"],
      "game.finished": ["game_id"],
      "challenge.played": ["token"],
      "tournament.started": ["tournament_id"],
      "tournament.paired": ["player_id", "tournament_id"],
      "tournament.finished": ["tournament_id"],
      "league.finished": ["league_id"],
    });
  });

  it("requires the data fields each event carries", () => {
    const required = (n: (typeof EVENT_NAMES)[number]) => eventCatalog().find((e) => e.name === n)!.data.required;
    assert.deepEqual(required("game.move"), ["game_id", "move_index", "n", "seat", "notation", "name", "captures", "score", "board", "status"]);
    assert.deepEqual(required("game.started"), ["game_id", "players", "ruleset", "first_player", "url"]);
    assert.deepEqual(required("game.finished"), [
      "game_id",
      "winner",
      "decided_by",
      "score",
      "players",
      "replay_url",
      "replay_page",
      "move_count",
      "results",
      "decision",
    ]);
    assert.deepEqual(required("challenge.played"), ["token", "game_id", "winner", "human_seat", "score", "decided_by", "human", "replay_url"]);
  });

  it("accepts a spec-shaped game.turn payload and refuses one without your_turn", () => {
    const data = {
      game_id: "g",
      seat: "A",
      your_turn: false,
      status: "finished",
      move_count: 16,
      last_move: "E7@b3",
      score: { A: 9, B: 7 },
      winner: "A",
      url: "https://x/watch/g",
    };
    assert.ok(DATA_SCHEMAS["game.turn"].safeParse(data).success);
    const { your_turn: _omit, ...rest } = data;
    assert.equal(DATA_SCHEMAS["game.turn"].safeParse(rest).success, false);
  });

  it("refuses unknown argument names so that they cannot change a subscription's identity", () => {
    assert.equal(ARGUMENT_SCHEMAS["game.move"].safeParse({ game_id: "g", seat: "A" }).success, false);
  });
});

describe("Unit: secrets, identifiers and identity", () => {
  it("accepts whsec_ secrets of 24 to 64 bytes and nothing else", () => {
    for (const n of [24, 32, 64]) assert.equal(isValidSecret(generateSecret(n)), true, `${n} bytes`);
    for (const n of [1, 23, 65]) assert.equal(isValidSecret(generateSecret(n)), false, `${n} bytes`);
    assert.equal(isValidSecret(generateSecret().slice(6)), false);
    assert.equal(isValidSecret("whsec_" + "*".repeat(44)), false);
    assert.equal(isValidSecret("whsec_" + Buffer.alloc(32).toString("base64").replace(/=$/, "")), false);
  });

  it("prefixes ids with evt_ and sub_ and never repeats them", () => {
    const ids = new Set(Array.from({ length: 100 }, newEventId));
    assert.equal(ids.size, 100);
    assert.ok([...ids].every((i) => i.startsWith("evt_")));
    assert.match(newSubscriptionId(), /^sub_/);
  });

  it("gives the same key whatever the order of the arguments and a different one for another url or event", () => {
    const k = subscriptionKey("game.turn", { game_id: "g", seat: "A" }, "https://a/x");
    assert.equal(subscriptionKey("game.turn", { seat: "A", game_id: "g" }, "https://a/x"), k);
    assert.notEqual(subscriptionKey("game.turn", { game_id: "g", seat: "B" }, "https://a/x"), k);
    assert.notEqual(subscriptionKey("game.turn", { game_id: "g", seat: "A" }, "https://a/y"), k);
    assert.notEqual(subscriptionKey("game.move", { game_id: "g", seat: "A" }, "https://a/x"), k);
  });
});
