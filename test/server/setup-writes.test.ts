import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { matchMaker } from "@colyseus/core";
import { pickMove } from "../support/play";
import { bearer, bootServer, http } from "../support/server";
import type { RunningServer } from "../../src/server";

/**
 * A game whose room opens in the request that creates it is stored already claimed by this process: its
 * creation is one durable write of the game, not the game and then its room's claim (the owner fence).
 * Counted as the store's WAL fsyncs (a SQLite file with synchronous=FULL: one per durable write), not timed.
 */
describe("Integration: a game's creation is one durable write (its room's claim included), and so is a join (its new guest included)", function () {
  let server: RunningServer;
  let dir: string;
  let fsyncs = 0;

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), "arena-setup-"));
    // The house opponent waits (houseDelayMs) so that its first move is no write of the creation.
    server = await bootServer(
      { database: join(dir, "arena.sqlite"), sqliteSynchronous: "FULL", houseDelayMs: 60_000 },
      { finishedGraceMs: 200, onFsync: () => fsyncs++ },
    );
  });
  after(async function () {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (fsyncs = 0));

  it("stores a friend game with its seat reservation in one write, and its room plays under that claim", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", reserveSeat: true });
    assert.equal(created.status, 201, created.text);
    assert.ok(created.json.seatReservation, "the seat is reserved: the room is open");
    assert.equal(fsyncs, 1);
    const stored = await server.store.games.getGame(created.json.game.id);
    assert.equal(stored?.owner, matchMaker.processId);
    assert.equal(stored?.ownerEpoch, 1);

    // The room writes under the epoch the creation stored: the claim, and then a move, pass the fence.
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code });
    assert.equal(joined.status, 200, joined.text);
    const tokens: Record<string, string> = { [created.json.seat]: created.json.playerToken, [joined.json.seat]: joined.json.playerToken };
    const id = created.json.game.id as string;
    const turn = (await http(server.url, "GET", `/api/v1/games/${id}`)).json.turn as string;
    const view = (await http(server.url, "GET", `/api/v1/games/${id}/sync`, undefined, bearer(tokens[turn]))).json;
    const moved = await http(server.url, "POST", `/api/v1/games/${id}/moves`, pickMove(view.state), bearer(tokens[turn]));
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await server.store.games.getGame(id))?.ownerEpoch, 1);
  });

  it("stores a join, the joining guest's new profile with its seat's claim, in one write", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend", reserveSeat: true });
    assert.equal(created.status, 201, created.text);
    fsyncs = 0;
    const joined = await http(server.url, "POST", "/api/v1/games/join", { code: created.json.code, name: "Joiner", reserveSeat: true });
    assert.equal(joined.status, 200, joined.text);
    assert.equal(fsyncs, 1);
    const profile = await server.store.players.getPlayer(joined.json.player.id);
    assert.equal(profile?.name, "Joiner");
    const game = await server.store.games.getGame(created.json.game.id);
    assert.equal(game?.status, "active");
    assert.equal(game?.seats[joined.json.seat as "A" | "B"]?.playerId, joined.json.player.id);
  });

  it("stores a house game, whose room opens at once, in one write", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "house" });
    assert.equal(created.status, 201, created.text);
    assert.equal(fsyncs, 1);
    assert.equal((await server.store.games.getGame(created.json.game.id))?.ownerEpoch, 1);
  });

  it("leaves a waiting game without a room unclaimed: its room, opened later, claims it", async function () {
    const created = await http(server.url, "POST", "/api/v1/games", { opponent: "friend" });
    assert.equal(created.status, 201, created.text);
    assert.equal(fsyncs, 1);
    assert.equal((await server.store.games.getGame(created.json.game.id))?.owner, undefined);
  });
});
