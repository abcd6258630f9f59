import { strict as assert } from "node:assert";
import { AppError } from "../../src/shared/errors";
import { RoomAccess } from "../../src/services/games/room-access";
import { GAME_ROOM_METHODS } from "../../src/services/games/room-api";
import { sha256Hex } from "../../src/shared/secrets";
import type { RunningServer } from "../../src/server";
import { parseGameIn } from "../../rooms/messages";
import { GameRoom } from "../../rooms/game-room";
import { pickMove } from "../support/play";
import { bootServer, http } from "../support/server";

describe("Unit: WebSocket messages in", function () {
  it("parses a move by notation or by fields and a resignation", function () {
    assert.deepEqual(parseGameIn("move", { move: "E7@b3" }), { type: "move", body: { move: "E7@b3" } });
    assert.deepEqual(parseGameIn("move", { card: "E7", square: "b3" }), { type: "move", body: { card: "E7", square: "b3" } });
    assert.deepEqual(parseGameIn("resign", undefined), { type: "resign" });
  });

  it("turns a malformed move or an unknown type into unexpected, naming what is wrong", function () {
    const bad = parseGameIn("move", { card: 7 });
    assert.equal(bad.type, "unexpected");
    const unknown = parseGameIn("dance", {});
    assert.deepEqual(unknown, { type: "unexpected", detail: "unknown message type dance" });
  });
});

describe("Integration: the typed seam between the facade and game rooms", function () {
  let server: RunningServer;
  let rooms: RoomAccess;

  before(async function () {
    server = await bootServer();
    rooms = new RoomAccess(server.store.games, server.log);
  });
  after(async function () {
    await server.close();
  });

  it("lists every method of the API on the room class, so a remote call by name always finds one", function () {
    for (const m of GAME_ROOM_METHODS) assert.equal(typeof GameRoom.prototype[m], "function", m);
  });

  it("reads, moves and refuses through the proxy with the room's own result shapes", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", seat: "A" });
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code });
    const id = created.json.game.id as string;
    const room = rooms.game(id);

    const record = await room.record();
    assert.ok(record.ok);
    assert.equal(record.value.status, "active");
    const turn = record.value.turn!;
    const token = turn === "A" ? created.json.playerToken : joined.json.playerToken;

    const sync = await room.sync(sha256Hex(token), 0);
    assert.ok(sync.ok);
    assert.equal(sync.value.yourTurn, true);
    const moved = await room.move(sha256Hex(token), pickMove(sync.value.state as never));
    assert.ok(moved.ok);
    assert.equal(moved.value.move.n, 1);
    assert.equal(moved.value.status, "active");

    const wrong = await room.move(sha256Hex("pt_not_a_seat"), { move: "E7@b3" });
    assert.ok(!wrong.ok);
    assert.equal(wrong.code, "unauthorized");
    const spectator = await room.sync(null, 1);
    assert.ok(spectator.ok);
    assert.equal(spectator.value.view, "spectator");
    assert.equal(spectator.value.moves.length, 0);
  });

  it("re-creates a game's room from the store when it exists nowhere, then answers", async function () {
    // A waiting game has no room until someone arrives.
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    const id = created.json.game.id as string;
    assert.equal(rooms.localGame(id), undefined);
    const claimed = await rooms
      .game(id)
      .claimSeat(created.json.code as string, { playerId: "P_SEAM", name: "Seam", kind: "human", tokenHash: sha256Hex("pt_seam") });
    assert.ok(claimed.ok);
    assert.equal(claimed.value.status, "active");
    assert.ok(rooms.localGame(id), "the room lives in this process again");
  });

  it("refuses a game that is not stored with not_found", async function () {
    await assert.rejects(rooms.game("g_missing").record(), (e: unknown) => e instanceof AppError && e.code === "not_found");
  });
});
